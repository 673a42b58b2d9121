import { http, HttpResult } from './http';
import { createNamespaces } from './namespaces';
import { startTestServer, TestServer } from './test-server';

export interface TwoInstances {
  a: TestServer;
  b: TestServer;
}

/**
 * Two instances over one database (`a` and `b`, once the file's tests start), stopped after the file's tests; the
 * `namespaces` the tests write in are created first.
 */
export function useTwoInstances(namespaces: readonly string[] = []): TwoInstances {
  const instances = {} as TwoInstances;
  beforeAll(async () => {
    instances.a = await startTestServer();
    instances.b = await startTestServer(instances.a.databaseUrl);
    await createNamespaces(instances.a.url, namespaces);
  });
  afterAll(async () => {
    await instances.b?.close();
    await instances.a?.close();
  });
  return instances;
}

/** One request to an instance; a plain object body is sent as JSON. */
export const call = (server: TestServer, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult> =>
  http(server.url, method, path, { body, headers });

/** Polls until `path` answers `status` on `server`; returns how long that took. */
export async function untilStatus(server: TestServer, path: string, status: number, timeoutMs = 5000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const got = await call(server, 'GET', path);
    if (got.status === status) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`${path} is still ${got.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
