import { http } from './http';

/**
 * Creates namespaces (one that exists already is left as it is): a test that writes objects in a namespace of its
 * own makes it first, as NamespaceLifecycle admission asks. `base` is a server's insecure URL.
 */
export async function createNamespaces(base: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const result = await http(base, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
    if (result.status !== 201 && result.status !== 409) throw new Error(`creating namespace ${name}: ${result.status} ${result.text}`);
  }
}
