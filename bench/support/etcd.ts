import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/global-setup';

/** An etcd of Debian's etcd-server package in a temporary data folder, on free ports of 127.0.0.1. */
export class Etcd {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {}

  /** The installed etcd's version, or undefined when there is none. */
  static version(): string | undefined {
    try {
      return execFileSync('etcd', ['--version']).toString().match(/etcd Version: (\S+)/)?.[1];
    } catch {
      return undefined;
    }
  }

  static async start(): Promise<Etcd> {
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-bench-etcd-'));
    const client = `http://127.0.0.1:${await freePort()}`;
    const peer = `http://127.0.0.1:${await freePort()}`;
    const child = spawn(
      'etcd',
      [
        '--name=bench', `--data-dir=${join(dir, 'data')}`,
        `--listen-client-urls=${client}`, `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer}`, `--initial-advertise-peer-urls=${peer}`, `--initial-cluster=bench=${peer}`,
      ],
      { stdio: 'ignore' },
    );
    const etcd = new Etcd(client, child, dir);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (await fetch(`${client}/health`).then((r) => r.ok, () => false)) return etcd;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await etcd.stop();
    throw new Error('etcd did not start');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The body of a put through etcd's JSON gateway (`POST /v3/kv/put`): key and value in base64. */
export function etcdPut(key: string, value: string): string {
  return JSON.stringify({ key: Buffer.from(key).toString('base64'), value: Buffer.from(value).toString('base64') });
}
