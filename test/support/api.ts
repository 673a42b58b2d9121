import { http, HttpResult } from './http';
import { createNamespaces } from './namespaces';
import { startTestServer, TestServer } from './test-server';

export interface Api {
  /** one request to the file's server; a plain object body is sent as JSON */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  server(): TestServer;
}

/**
 * Starts a server (over a database of its own) for the tests of the calling file, and stops it after them; the
 * `namespaces` the tests write in are created first; `env` overrides settings as the environment would.
 */
export function useTestServer(namespaces: readonly string[] = [], env: Record<string, string> = {}): Api {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, env);
    await createNamespaces(server.url, namespaces);
  });
  afterAll(() => server.close());
  return {
    call: (method, path, body, headers) => http(server.url, method, path, { body, headers }),
    server: () => server,
  };
}
