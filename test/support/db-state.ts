import { TestServer } from './test-server';

/**
 * Everything a write could have changed: every stored row and the change log's extent. Two equal snapshots mean
 * that nothing was written in between.
 */
export async function dbState(server: TestServer) {
  const objects = await server.sql(
    `SELECT api_group, resource, namespace, name, resource_version::text, body FROM objects
     ORDER BY api_group, resource, namespace, name`,
  );
  const [changes] = await server.sql(
    'SELECT count(*)::int AS count, max(resource_version)::text AS newest FROM change_log',
  );
  return { objects, changes };
}
