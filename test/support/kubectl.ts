import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlClient {
  /** a short tag that is valid in object names */
  tag: string;
  binary: string;
}

/** Where `npm test` (scripts/test-tools.sh) puts kubectl 1.20; CI must have it (the e2e tests fail without it there). */
export const KUBECTL_1_20 = join(__dirname, '..', '..', '.tools', 'kubectl-1.20', 'usr', 'bin', 'kubectl');

/** The clients the end-to-end tests drive: the kubectl on the PATH, and kubectl 1.20 once `npm test` has fetched it. */
export const KUBECTLS: KubectlClient[] = [
  { tag: 'path', binary: 'kubectl' },
  ...(existsSync(KUBECTL_1_20) ? [{ tag: 'v120', binary: KUBECTL_1_20 }] : []),
];
if (KUBECTLS.length === 1) {
  process.stderr.write(`kubectl 1.20 is missing (${KUBECTL_1_20}): its cases are skipped; scripts/fetch-kubectl-1.20.sh fetches it\n`);
}

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Discovery caches of the test run's own, one per kubectl version: kubectl keeps one per host:port for 10 minutes,
 * and ports get reused.
 */
const CACHE_DIR = mkdtempSync(join(tmpdir(), 'pgkube-kubectl-cache-'));
process.on('exit', () => rmSync(CACHE_DIR, { recursive: true, force: true }));

/**
 * Runs kubectl against `server` (a URL, or a kubeconfig file for `{ kubeconfig }`) with its version's own discovery
 * cache and no other kubeconfig.
 */
const spawnKubectl = (client: KubectlClient, server: KubectlTarget, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawn(
    client.binary,
    [typeof server === 'string' ? `--server=${server}` : `--kubeconfig=${server.kubeconfig}`, `--cache-dir=${join(CACHE_DIR, client.tag)}`, ...args],
    { env: { ...process.env, ...env, KUBECONFIG: '/dev/null' } },
  );

/** A server's URL, or a kubeconfig that names the server and the credentials. */
export type KubectlTarget = string | { kubeconfig: string };

/** Runs kubectl against `server`, feeding `input` to its standard input. */
export function kubectl(client: KubectlClient, server: KubectlTarget, args: string[], input = '', env: NodeJS.ProcessEnv = {}): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawnKubectl(client, server, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Runs `kubectl edit` (`args` name the object) with an editor that applies the sed `expression` to the YAML it is given. */
export const kubectlEdit = (client: KubectlClient, server: KubectlTarget, args: string[], expression: string) =>
  kubectl(client, server, ['edit', ...args], '', { KUBE_EDITOR: `sed -i -e '${expression}'` });

/** A long-running kubectl (such as `get -w`): its output lines as they come, and a way to stop it. */
export interface RunningKubectl {
  lines: string[];
  /** waits until `count` lines of output have arrived */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  stop(): void;
}

export function startKubectl(client: KubectlClient, server: string, args: string[]): RunningKubectl {
  const child = spawnKubectl(client, server, args);
  const lines: string[] = [];
  let pending = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() as string;
    lines.push(...complete.filter((line) => line.trim() !== ''));
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return {
    lines,
    async waitForLines(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (lines.length < count) {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`kubectl ${args.join(' ')}: got ${JSON.stringify(lines)}; stderr: ${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return lines;
    },
    stop: () => child.kill(),
  };
}
