import { Logger } from '@nestjs/common';
import cluster, { Worker } from 'node:cluster';
import { createServer } from 'node:net';
import { Pool } from 'pg';
import { Settings, SETTING_NAMES } from '../config/settings';
import { servingCertificate } from '../serving/serving-certificate';
import { withApplicationName } from '../storage/database/application-name';
import { applyMigrations } from '../storage/database/migrator';
import { openDatabase } from './database';
import { ServingAddresses } from './server-instance';
import { WorkerServing } from './worker';

/** A worker that dies is started again after 1 s, then 2, 4… up to 30 s while it keeps dying within a minute. */
const FIRST_RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
const HEALTHY_AFTER_MS = 60_000;

/**
 * The primary process of `--workers N`: starts the embedded PostgreSQL when DATABASE_URL is unset, applies the
 * migrations once, then forks N workers that share both ports (the cluster module: this process accepts each
 * connection and hands it to a worker in turn). It restarts a worker that dies, and on SIGTERM/SIGINT forwards the
 * signal to every worker, waits for their graceful stop, and stops the PostgreSQL.
 */
export async function runPrimary(settings: Settings, count: number): Promise<void> {
  const logger = new Logger('primary');
  const database = await openDatabase(settings, logger);
  const supervisor = new WorkerSupervisor(count, logger);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ message: 'shutting down', signal, workers: supervisor.pids() });
    await supervisor.stop(signal as NodeJS.Signals);
    await database.stop();
    logger.log({ message: 'stopped' });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  try {
    await migrate(database.url, logger);
    // made here when missing, so that the workers read one certificate rather than each making its own
    await servingCertificate(settings.TLS_CERT_FILE, settings.TLS_PRIVATE_KEY_FILE, settings.CERT_DIR);
    const environment = {
      ...settingsAsEnvironment(settings),
      DATABASE_URL: database.url,
      // a port chosen here, so that each worker's listen(0) and the two ports cannot meet on one shared socket
      PORT: String(await freePortUnlessGiven(settings.INSECURE_BIND_ADDRESS, settings.PORT)),
      SECURE_PORT: String(await freePortUnlessGiven(settings.BIND_ADDRESS, settings.SECURE_PORT)),
    };
    const serving = await supervisor.start(environment);
    logger.log({ message: 'serving', ...serving, workers: supervisor.pids() });
  } catch (error) {
    stopping = true;
    await supervisor.stop('SIGTERM');
    await database.stop();
    throw error;
  }
}

async function migrate(databaseUrl: string, logger: Logger): Promise<void> {
  const pool = new Pool({ connectionString: withApplicationName(databaseUrl), max: 1 });
  try {
    const applied = await applyMigrations(pool);
    logger.log(`migrations: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
  } finally {
    await pool.end();
  }
}

/** The settings as environment variables: a worker reads its settings from the environment alone. */
function settingsAsEnvironment(settings: Settings): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const key of SETTING_NAMES) {
    if (settings[key] !== undefined) environment[key] = String(settings[key]);
  }
  return environment;
}

/** `port`, or when it is 0 a port free on `address` now. */
function freePortUnlessGiven(address: string, port: number): Promise<number> {
  if (port !== 0) return Promise.resolve(port);
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
}

interface Slot {
  worker?: Worker;
  startedAt: number;
  /** restarts since it last ran for HEALTHY_AFTER_MS */
  restarts: number;
  restartTimer?: NodeJS.Timeout;
}

/** N worker processes, each kept running in its slot until `stop`. */
class WorkerSupervisor {
  private readonly slots: Slot[];
  private environment: Record<string, string> = {};
  private stopping = false;
  private starting?: { waiting: number; resolve: (serving: ServingAddresses) => void; reject: (error: Error) => void };
  private readonly exited = new Set<() => void>();

  constructor(
    count: number,
    private readonly logger: Logger,
  ) {
    this.slots = Array.from({ length: count }, () => ({ startedAt: 0, restarts: 0 }));
  }

  /** Forks every worker; resolves once all serve, fails when one exits before it does. */
  start(environment: Record<string, string>): Promise<ServingAddresses> {
    this.environment = environment;
    // the settings reach the workers in their environment; flags would win over it
    cluster.setupPrimary({ args: [] });
    return new Promise((resolve, reject) => {
      this.starting = { waiting: this.slots.length, resolve, reject };
      for (const slot of this.slots) this.fork(slot);
    });
  }

  pids(): number[] {
    return this.slots.flatMap((slot) => (slot.worker?.process.pid ? [slot.worker.process.pid] : []));
  }

  /** Sends `signal` to every worker and resolves once all have exited; none is restarted any more. */
  stop(signal: NodeJS.Signals): Promise<void> {
    this.stopping = true;
    for (const slot of this.slots) clearTimeout(slot.restartTimer);
    return new Promise((resolve) => {
      const check = () => {
        if (this.slots.some((slot) => slot.worker)) return;
        this.exited.delete(check);
        resolve();
      };
      this.exited.add(check);
      for (const slot of this.slots) slot.worker?.process.kill(signal);
      check();
    });
  }

  private fork(slot: Slot): void {
    const worker = cluster.fork(this.environment);
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (message: Partial<WorkerServing>) => {
      if (message.serving) this.served(message.serving);
    });
    worker.once('exit', (code, signal) => this.ended(slot, worker, code, signal));
  }

  private served(serving: ServingAddresses): void {
    if (!this.starting) return;
    if (--this.starting.waiting === 0) {
      this.starting.resolve(serving);
      this.starting = undefined;
    }
  }

  private ended(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    slot.worker = undefined;
    const pid = worker.process.pid;
    if (this.stopping) {
      this.logger.log({ message: 'worker stopped', pid, code, signal });
      this.exited.forEach((check) => check());
      return;
    }
    if (this.starting) {
      this.starting.reject(new Error(`worker ${pid} exited (code ${code}, signal ${signal}) before it served`));
      this.starting = undefined;
      return;
    }
    if (Date.now() - slot.startedAt >= HEALTHY_AFTER_MS) slot.restarts = 0;
    const delayMs = Math.min(FIRST_RESTART_DELAY_MS * 2 ** slot.restarts, MAX_RESTART_DELAY_MS);
    slot.restarts++;
    this.logger.warn({ message: 'worker exited; starting another', pid, code, signal, restartInSeconds: delayMs / 1000 });
    slot.restartTimer = setTimeout(() => this.fork(slot), delayMs);
  }
}
