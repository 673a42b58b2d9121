import { readFileSync } from 'node:fs';
import { TestServer } from './test-server';

/**
 * Rows of `objects` as a previous build stored them (`fixture`: captured from that build's database), inserted by SQL
 * before the file's tests. Gives the body a row holds, by the object's name.
 */
export function usePreviousBuildRows(server: () => TestServer, fixture: string): (name: string) => any {
  const rows: { api_group: string; resource: string; body: any }[] = JSON.parse(readFileSync(fixture, 'utf8'));
  beforeAll(async () => {
    for (const row of rows) await server().sql('INSERT INTO objects (api_group, resource, body) VALUES ($1, $2, $3)', [row.api_group, row.resource, row.body]);
  });
  return (name) => rows.find((row) => row.body.metadata.name === name)!.body;
}
