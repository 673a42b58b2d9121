import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, Server, Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './global-setup';

const BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL program as the postgres user when the tests run as root (PostgreSQL refuses root). */
function asPostgres(program: string, args: string[]): string {
  const command = join(BIN, program);
  const [file, argv] = userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { stdio: 'pipe', encoding: 'utf8' });
}

/** One PostgreSQL server of the pair: its data folder and port. */
export class Node {
  constructor(
    readonly data: string,
    readonly port: number,
    private readonly log: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(settings: Record<string, string>): void {
    const options = Object.entries({ port: String(this.port), listen_addresses: '127.0.0.1', unix_socket_directories: this.data, ...settings })
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ');
    asPostgres('pg_ctl', ['-D', this.data, '-w', '-l', this.log, '-o', options, 'start']);
  }

  /** SIGKILLs the postmaster and its processes, as a lost machine stops them: no shutdown, no last WAL sent. */
  kill(): void {
    const postmaster = Number(readFileSync(join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    for (const pid of [postmaster, ...children]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Runs statements on this server, each on its own (ALTER SYSTEM runs outside a transaction). */
  async run(...statements: string[]): Promise<void> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  }

  /** A standby stops applying the WAL it receives (it keeps receiving it): its reads show the state they stopped at. */
  pauseReplay(): Promise<void> {
    return this.run('SELECT pg_wal_replay_pause()');
  }

  resumeReplay(): Promise<void> {
    return this.run('SELECT pg_wal_replay_resume()');
  }

  /**
   * A standby stops receiving WAL from its primary (its receiver is stopped): an asynchronous standby then falls behind
   * by every commit after this, which a promotion loses (promotion applies what was received, so a paused replay
   * alone would lose nothing).
   */
  stopReceiving(): Promise<void> {
    return this.run("ALTER SYSTEM SET primary_conninfo = ''", 'SELECT pg_reload_conf()');
  }

  promote(): void {
    asPostgres('pg_ctl', ['-D', this.data, '-w', 'promote']);
  }

  stop(): void {
    try {
      asPostgres('pg_ctl', ['-D', this.data, '-w', '-m', 'immediate', 'stop']);
    } catch {
      // not running
    }
  }
}

/** Settings of both nodes: streaming replication, quick to start and stop (the tests kill machines, not disks). */
const COMMON = { wal_level: 'replica', max_wal_senders: '5', hot_standby: 'on', fsync: 'off', full_page_writes: 'off' };

/**
 * A primary and a streaming standby (application_name `standby`) from Debian's PostgreSQL 15 binaries; the primary
 * waits for the standby's acknowledgement of every commit when `synchronous` (synchronous_standby_names), and
 * acknowledges commits the standby may not have yet otherwise (asynchronous replication).
 */
export class ReplicatedPostgres {
  private constructor(
    readonly dir: string,
    readonly primary: Node,
    readonly standby: Node,
  ) {}

  static async start(synchronous: boolean): Promise<ReplicatedPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-failover-'));
    chmodSync(dir, 0o777);
    const primary = new Node(join(dir, 'primary'), await freePort(), join(dir, 'primary.log'));
    const standby = new Node(join(dir, 'standby'), await freePort(), join(dir, 'standby.log'));
    asPostgres('initdb', ['-D', primary.data, '-U', 'postgres', '--auth=trust']);
    // In postgresql.auto.conf, not on the command line, so that ALTER SYSTEM can change it.
    appendFileSync(join(primary.data, 'postgresql.auto.conf'), `synchronous_standby_names = '${synchronous ? 'standby' : ''}'\n`);
    primary.start(COMMON);
    asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', standby.data, '-R', '-X', 'stream']);
    appendFileSync(
      join(standby.data, 'postgresql.auto.conf'),
      // Promoted, the standby is alone: it must not wait for a standby of its own.
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=standby'\nsynchronous_standby_names = ''\n`,
    );
    standby.start(COMMON);
    return new ReplicatedPostgres(dir, primary, standby);
  }

  /** Resolves once the standby has applied every commit the primary had made when called. */
  async replicated(timeoutMs = 10_000): Promise<void> {
    const primary = new Client({ connectionString: this.primary.url });
    const standby = new Client({ connectionString: this.standby.url });
    await Promise.all([primary.connect(), standby.connect()]);
    try {
      const [{ lsn }] = (await primary.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows;
      const deadline = Date.now() + timeoutMs;
      while (!(await standby.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn])).rows[0].done) {
        if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${lsn} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await Promise.all([primary.end(), standby.end()]);
    }
  }

  stop(): void {
    this.primary.stop();
    this.standby.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A TCP proxy that forwards each connection to the node it currently points at (HAProxy on Patroni's primary check):
 * `point(undefined)` refuses new connections, `cut()` closes every open one (HAProxy's on-marked-down
 * shutdown-sessions), `partition()` stops every byte without closing anything (a network partition) until `heal()`.
 */
export class PrimaryProxy {
  private readonly open = new Set<Socket>();
  private readonly held = new Set<Socket>();
  private target?: number;
  private partitioned = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: number): Promise<PrimaryProxy> {
    const port = await freePort();
    const server = createServer();
    const proxy = new PrimaryProxy(server, port);
    proxy.target = target;
    server.on('connection', (client) => proxy.forward(client));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return proxy;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  point(target: number | undefined): void {
    this.target = target;
  }

  cut(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  partition(): void {
    this.partitioned = true;
    for (const socket of this.open) socket.pause();
  }

  heal(): void {
    this.partitioned = false;
    for (const socket of this.open) socket.resume();
    for (const client of this.held) client.destroy();
    this.held.clear();
  }

  close(): Promise<void> {
    this.heal();
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: Socket): void {
    if (this.partitioned) {
      this.held.add(client);
      client.on('error', () => undefined);
      return;
    }
    if (this.target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(this.target, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.open.delete(from);
        to.destroy();
      });
    }
  }
}
