import { Injectable, Logger } from '@nestjs/common';
import { HealthProbes } from '../storage/health-probes';
import { ChangeFeed } from '../watch/change-feed.service';
import { ChangeHistory } from '../storage/changes/change-history';
import { ShutdownSignal } from './shutdown-signal';

/** How long one check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

/** How long the write probe may wait for its commit (a synchronous standby's acknowledgement among it). */
const WRITE_PROBE_TIMEOUT_MS = 1000;

/** One named check; it throws (or rejects) with the reason when it fails. */
export interface HealthCheck {
  name: string;
  run(): Promise<void>;
}

export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';

export interface CheckResult {
  name: string;
  /** why it failed; undefined when it passed */
  failure?: string;
}

function withTimeout(check: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The checks behind /livez, /readyz and /healthz, as kube-apiserver's: liveness is the process answering at all;
 * readiness adds the database, a write that must commit (writes that hang waiting for a lost synchronous standby make
 * the instance unready, where a `SELECT 1` would still answer), the migrations, the change feed being connected and caught up, and not shutting down;
 * /healthz is readiness without the shutdown check.
 */
@Injectable()
export class HealthChecks {
  private readonly logger = new Logger('Health');
  /** the checks failing at their last run, so that a change of state is logged once */
  private readonly failing = new Set<string>();
  readonly endpoints: Record<HealthEndpoint, HealthCheck[]>;

  constructor(
    private readonly probes: HealthProbes,
    private readonly feed: ChangeFeed,
    private readonly history: ChangeHistory,
    private readonly shutdown: ShutdownSignal,
  ) {
    const check = (name: string, run: () => Promise<void>): HealthCheck => ({ name, run: () => withTimeout(run) });
    const ping = check('ping', async () => undefined);
    const database = check('database', () => this.checkDatabase());
    const writes = check('database-readiness', () => this.probes.write(WRITE_PROBE_TIMEOUT_MS));
    const migrations = check('migrations', () => this.checkMigrations());
    const changeFeed = check('change-feed', () => this.checkChangeFeed());
    const shuttingDown = check('shutdown', async () => {
      if (this.shutdown.requested) throw new Error('the server is shutting down');
    });
    this.endpoints = {
      livez: [ping],
      readyz: [ping, database, writes, migrations, changeFeed, shuttingDown],
      healthz: [ping, database, migrations, changeFeed],
    };
  }

  /** Runs checks side by side; logs a check that starts failing, and one that passes again. */
  run(checks: HealthCheck[]): Promise<CheckResult[]> {
    return Promise.all(
      checks.map(async ({ name, run }) => {
        try {
          await run();
          if (this.failing.delete(name)) this.logger.log({ message: 'health check passes again', check: name });
          return { name };
        } catch (error) {
          const failure = (error as Error)?.message ?? String(error);
          if (!this.failing.has(name)) this.logger.warn({ message: 'health check fails', check: name, reason: failure });
          this.failing.add(name);
          return { name, failure };
        }
      }),
    );
  }

  private async checkDatabase(): Promise<void> {
    await this.probes.ping();
  }

  private async checkMigrations(): Promise<void> {
    const missing = await this.probes.missingMigrations();
    if (missing.length > 0) throw new Error(`not applied: ${missing.join(', ')}`);
  }

  private async checkChangeFeed(): Promise<void> {
    if (!this.feed.connected) throw new Error('the change-feed listener is not connected');
    const newest = await this.history.newest();
    if (!(await this.feed.reaches(newest, CHECK_TIMEOUT_MS / 2))) {
      throw new Error(`delivered changes up to ${this.feed.position}, the change log has ${newest}`);
    }
  }
}
