import { TestServer } from './test-server';

/**
 * The row of the object `name` in the operator view `kube.<view>`, without the columns that tell two objects apart
 * (name, uid, times, resourceVersion): two objects written alike have equal ones.
 */
export async function viewColumns(server: TestServer, view: string, name: string) {
  const [row] = await server.sql(`SELECT * FROM kube.${view} WHERE name = $1`, [name]);
  const { name: _, uid, created, updated, resource_version, ...columns } = row;
  return columns;
}
