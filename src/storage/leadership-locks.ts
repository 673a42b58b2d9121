import { Inject, Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { DATABASE_URL } from './database/database.tokens';

/** The second key of each role's advisory lock (the first is 7365, pgkube's). */
const LOCK_KEYS = { 'garbage-collector': 3 } as const;

export type LeadershipRole = keyof typeof LOCK_KEYS;

/**
 * A dedicated connection that can hold a role's session-level advisory lock: PostgreSQL releases the lock when the
 * connection goes, so that another instance can take the role over. `onLost` hears of the connection's loss.
 */
export class LeadershipSession {
  private client?: Client;

  constructor(
    private readonly databaseUrl: string,
    private readonly key: number,
    private readonly onLost: (reason: string) => void,
  ) {}

  /** Takes the lock if no other session holds it (connecting first when there is no connection): true when held. */
  async tryLead(): Promise<boolean> {
    if (!this.client) this.client = await this.connect();
    const { rows } = await this.client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(7365, ${this.key}) AS locked`);
    return rows[0].locked;
  }

  /** Closes the connection, and so gives up the lock; the next tryLead connects again. */
  drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    return client?.end().catch(() => undefined) ?? Promise.resolve();
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('error', (error) => this.onLost(`leadership connection lost: ${error.message}`));
    client.on('end', () => this.onLost('leadership connection closed'));
    await client.connect();
    return client;
  }
}

/** Elects, among the instances, the one that plays a role. */
@Injectable()
export class LeadershipLocks {
  constructor(@Inject(DATABASE_URL) private readonly databaseUrl: string) {}

  session(role: LeadershipRole, onLost: (reason: string) => void): LeadershipSession {
    return new LeadershipSession(this.databaseUrl, LOCK_KEYS[role], onLost);
  }
}
