import { TestServer } from './test-server';

/**
 * Everything a write could have changed: every stored row, the whole change log as text, and the resourceVersion
 * sequence. Two equal snapshots mean that nothing was written in between.
 */
export async function dbState(server: TestServer) {
  const objects = await server.sql(
    `SELECT api_group, resource, namespace, name, resource_version::text, uid::text, created_at::text, updated_at::text,
            body::text FROM objects ORDER BY api_group, resource, namespace, name`,
  );
  const [changes] = await server.sql(
    `SELECT count(*)::int AS count, max(resource_version)::text AS newest,
            md5(COALESCE(string_agg(change_log::text, E'\\n' ORDER BY resource_version), '')) AS digest FROM change_log`,
  );
  const [sequence] = await server.sql('SELECT last_value::text, is_called FROM resource_version_seq');
  return { objects, changes, sequence };
}
