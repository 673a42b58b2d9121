import { http } from './http';
import { sample } from './metrics';
import { ServerProcess } from './server-process';
import { createTestDatabase, dropTestDatabase } from './test-server';
import { startServerProcess } from './test-server-process';

/** Short timings: a Lease held 3 s without renewal may be taken, renewed every 500 ms. */
export const SHORT_LEADER_ELECTION = { LEADER_ELECT_LEASE_DURATION: '3s', LEADER_ELECT_RENEW_DEADLINE: '2s', LEADER_ELECT_RETRY_PERIOD: '500ms' };
export const LEASE_DURATION_MS = 3000;
export const RETRY_PERIOD_MS = 500;

/** The instances whose metrics say they lead the Lease `name`. */
export async function leadersOf(instances: ServerProcess[], name: string): Promise<ServerProcess[]> {
  const leading = await Promise.all(
    instances.map(async (instance) => sample((await http(instance.url, 'GET', '/metrics')).text, 'leader_election_master_status', { name }) === 1),
  );
  return instances.filter((_, i) => leading[i]);
}

/** The server processes of a test file; a test that stops one takes it out of `all`. */
export interface Instances {
  all: ServerProcess[];
}

/**
 * Starts `count` server processes over one fresh database, with short leader election timings and `args`, for the
 * tests of the calling file; kills them and drops the database after.
 */
export function useInstances(count: number, args: string[] = []): Instances {
  const instances: Instances = { all: [] };
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    instances.all = await Promise.all(Array.from({ length: count }, () => startServerProcess({ DATABASE_URL: databaseUrl, ...SHORT_LEADER_ELECTION }, args)));
  });
  afterAll(async () => {
    await Promise.all(instances.all.map((instance) => instance.stop('SIGKILL')));
    await dropTestDatabase(databaseUrl);
  });
  return instances;
}
