import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Kubectl {
  /** e.g. "kubectl 1.20" */
  name: string;
  run(server: string, args: string[]): Promise<KubectlResult>;
}

const KUBECTL_1_20 = join(__dirname, '..', '..', '.tools', 'kubectl-1.20', 'usr', 'bin', 'kubectl');

function kubectl(name: string, binary: string): Kubectl {
  // a discovery cache of its own, so that no other server's cached discovery is used
  const cacheDir = mkdtempSync(join(tmpdir(), 'pgkube-kubectl-cache-'));
  return {
    name,
    run: (server, args) =>
      new Promise((resolve) => {
        const options = { env: { ...process.env, KUBECONFIG: '/dev/null' }, timeout: 30_000 };
        execFile(binary, [`--server=${server}`, `--cache-dir=${cacheDir}`, ...args], options, (error, stdout, stderr) => {
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
        });
      }),
  };
}

/** The kubectl on the PATH, and kubectl 1.20 (the oldest supported client) when `npm run tools:kubectl-1.20` fetched it. */
export function kubectls(): Kubectl[] {
  const all = [kubectl('kubectl on the PATH', 'kubectl')];
  if (existsSync(KUBECTL_1_20)) all.push(kubectl('kubectl 1.20', KUBECTL_1_20));
  return all;
}
