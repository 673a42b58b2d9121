import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const UP = join(ROOT, 'deploy', 'ha', 'up.sh');
const DOWN = join(ROOT, 'deploy', 'ha', 'down.sh');
const PATRONI = join(ROOT, 'deploy', 'ha', 'patroni.sh');
const run = promisify(execFile);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A member of the cluster as Patroni's REST API (GET /cluster) reports it. */
export interface Member {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica';
  state: string;
  timeline?: number;
}

/** Whether a TCP port on 127.0.0.1 can be listened on now. */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A run of 60 free ports (up.sh's layout takes HA_PORT_BASE to HA_PORT_BASE + 59). */
async function freePortBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 400) * 100;
    const free = await Promise.all(Array.from({ length: 60 }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
}

/**
 * The HA topology of deploy/ha, as its own up.sh brings it up (etcd, three Patroni-run PostgreSQL 15 nodes with a
 * synchronous standby, HAProxy), without its pgkube instances (the tests start their own), and the faults the
 * fault suite injects into it.
 */
export class HaTopology {
  private constructor(
    readonly dir: string,
    readonly base: number,
  ) {}

  static async up(): Promise<HaTopology> {
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-ha-'));
    chmodSync(dir, 0o755);
    const base = await freePortBase();
    const topology = new HaTopology(dir, base);
    try {
      await run('bash', [UP], { env: topology.env(), maxBuffer: 16 << 20 });
    } catch (error) {
      await topology.down();
      throw error;
    }
    return topology;
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, HA_DIR: this.dir, HA_PORT_BASE: String(this.base), HA_INSTANCES: '0' };
  }

  /** HAProxy's primary port: what pgkube's DATABASE_URL names. */
  get primaryUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.base + 30}/postgres`;
  }

  nodeUrl(name: string): string {
    return `postgres://postgres@127.0.0.1:${this.base + 10 + this.index(name)}/postgres`;
  }

  private index(name: string): number {
    return Number(name.replace('node', ''));
  }

  private restUrl(name: string): string {
    return `http://127.0.0.1:${this.base + 20 + this.index(name)}`;
  }

  /** The members as any answering Patroni reports them. */
  async members(): Promise<Member[]> {
    for (const name of ['node1', 'node2', 'node3']) {
      const cluster = await fetch(`${this.restUrl(name)}/cluster`, { signal: AbortSignal.timeout(1000) })
        .then((response) => (response.ok ? (response.json() as Promise<{ members: Member[] }>) : undefined))
        .catch(() => undefined);
      if (cluster) return cluster.members;
    }
    return [];
  }

  async leader(): Promise<string> {
    const leader = (await this.members()).find((m) => m.role === 'leader');
    if (!leader) throw new Error('no leader');
    return leader.name;
  }

  /** Waits until all three nodes run, one leads and one is its synchronous standby, all on the leader's timeline. */
  async untilHealthy(timeoutMs = 120_000): Promise<Member[]> {
    const deadline = Date.now() + timeoutMs;
    let members: Member[] = [];
    while (Date.now() < deadline) {
      members = await this.members();
      const leader = members.find((m) => m.role === 'leader');
      const healthy =
        members.length === 3 &&
        members.every((m) => ['running', 'streaming'].includes(m.state) && m.timeline === leader?.timeline) &&
        members.some((m) => m.role === 'sync_standby');
      if (leader && healthy) return members;
      await pause(250);
    }
    throw new Error(`the cluster did not become healthy: ${JSON.stringify(members)}`);
  }

  /** SIGKILLs a node's postmaster and its processes (its Patroni lives on and notices). */
  killPostgres(name: string): void {
    const postmaster = Number(readFileSync(join(this.dir, name, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    for (const pid of [postmaster, ...children]) signal(pid, 'SIGKILL');
  }

  /** A lost host: its Patroni and its PostgreSQL SIGKILLed together. */
  killHost(name: string): void {
    signal(this.patroniPid(name), 'SIGKILL');
    this.killPostgres(name);
  }

  /** Starts a node's Patroni again after killHost (it recovers its PostgreSQL as a standby of the new primary). */
  restartPatroni(name: string): void {
    execFileSync('bash', [PATRONI, this.dir, name], { stdio: 'ignore' });
  }

  private patroniPid(name: string): number {
    return Number(readFileSync(join(this.dir, `patroni-${name}.pid`), 'utf8').trim());
  }

  /** Changes the cluster's dynamic configuration as `patronictl edit-config` does (Patroni's PATCH /config). */
  async configure(settings: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${this.restUrl(await this.leader())}/config`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(settings),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`PATCH /config: ${response.status} ${await response.text()}`);
  }

  /**
   * SIGSTOPs a node's WAL senders: its standbys stay connected but receive nothing more, so with asynchronous
   * replication its commits go on being acknowledged while they exist on this node only. Returns how many it stopped.
   */
  stopWalSenders(name: string): number {
    const postmaster = Number(readFileSync(join(this.dir, name, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const senders = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('walsender'))
      .map((line) => Number(line.trim().split(' ')[0]));
    for (const pid of senders) signal(pid, 'SIGSTOP');
    return senders.length;
  }

  /** A planned switchover to `candidate` with patronictl, as docs/operations.md says. */
  async switchover(candidate: string): Promise<void> {
    const leader = await this.leader();
    await run('patronictl', ['-c', join(this.dir, 'node1.yml'), 'switchover', '--leader', leader, '--candidate', candidate, '--force']);
  }

  async down(): Promise<void> {
    await run('bash', [DOWN, '--purge'], { env: this.env() }).catch(() => undefined);
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
