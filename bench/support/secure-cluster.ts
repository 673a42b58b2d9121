import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/global-setup';
import { Cluster } from './server';

/** A one-server cluster that also serves HTTPS on 127.0.0.1, authenticating bearer tokens, its files in a folder of its own. */
export interface SecureCluster {
  cluster: Cluster;
  /** the secure port's base URL */
  secureUrl: string;
  /** the settings its server runs with, to start another like it (on a SECURE_PORT of its own) */
  settings: Record<string, string>;
  /** the path of a file in the cluster's folder (`certs/apiserver.crt` is the serving certificate) */
  path(file: string): string;
  /** stops the server and removes the folder */
  stop(): Promise<void>;
}

/**
 * Starts a SecureCluster whose token file holds `tokens` (the token file's CSV lines), with `files` (name → content)
 * written beside it first and `env` added to the server's settings, given the path of a file in that folder.
 */
export async function startSecureCluster(
  name: string,
  tokens: string,
  files: Record<string, string> = {},
  env: (path: (file: string) => string) => Record<string, string> = () => ({}),
): Promise<SecureCluster> {
  const folder = mkdtempSync(join(tmpdir(), `pgkube-bench-${name}-`));
  const path = (file: string) => join(folder, file);
  writeFileSync(path('tokens.csv'), tokens);
  for (const [file, content] of Object.entries(files)) writeFileSync(path(file), content);
  const securePort = await freePort();
  const settings = { BIND_ADDRESS: '127.0.0.1', CERT_DIR: path('certs'), TOKEN_AUTH_FILE: path('tokens.csv'), ...env(path) };
  const cluster = await Cluster.start(1, { env: { ...settings, SECURE_PORT: String(securePort) } });
  return {
    cluster,
    secureUrl: `https://127.0.0.1:${securePort}`,
    settings,
    path,
    stop: async () => {
      await cluster.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
