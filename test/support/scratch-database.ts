import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh, empty database named `<prefix>_<random>` on the PostgreSQL of `adminUrl`; returns its connection string. */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database of `databaseUrl`, closing its connections. */
export async function dropScratchDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
}
