import { Logger } from '@nestjs/common';
import { Lease } from '../apis/coordination/lease/lease.schema';
import { ControllerLeases, LeaseSpec } from './controller-leases';

/** client-go's leader election timings, in milliseconds. */
export interface LeaderElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's jitter of the retry period of a candidate that does not lead: up to this many periods more. */
const JITTER_FACTOR = 1.2;

/** A MicroTime: RFC 3339 with microseconds. */
const microTime = (at: Date) => at.toISOString().replace(/Z$/, '000Z');

const versionOf = (lease: Lease) => BigInt(lease.metadata.resourceVersion as string);

/**
 * client-go's leader election over one Lease: every retry period it takes the Lease when no one holds it or the
 * holder has not renewed it for its lease duration (measured on this instance's clock from when it saw the Lease
 * change, so clocks need not agree), and while it leads renews it. It stops leading when it could not renew for the
 * renew deadline, and at once when it sees another holder: so two instances never lead at the same time.
 */
export class LeaderElector {
  private readonly logger: Logger;
  /** the newest state of the Lease known: from the informer or from this elector's own write */
  private observed?: Lease;
  /** when (this instance's clock) the Lease was last seen changing */
  private observedAt = 0;
  private leading = false;
  private stopped = true;
  private attemptTimer?: NodeJS.Timeout;
  private deadlineTimer?: NodeJS.Timeout;
  private attempting?: Promise<void>;

  constructor(
    readonly leaseName: string,
    private readonly identity: string,
    private readonly timings: LeaderElectionTimings,
    private readonly leases: ControllerLeases,
    private readonly callbacks: { started(): void; stopped(): Promise<void> },
  ) {
    this.logger = new Logger(`LeaderElection ${leaseName}`);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Tries to take the Lease now and then every retry period; resolves after the first try. */
  start(): Promise<void> {
    this.stopped = false;
    this.leases.observe(this.leaseName, (lease, resourceVersion) => this.observe(lease, resourceVersion));
    this.attempting = this.attempt().finally(() => {
      this.attempting = undefined;
      this.scheduleNext();
    });
    return this.attempting;
  }

  /** Stops trying, stops leading, and gives the Lease up (client-go's ReleaseOnCancel) so that another takes it at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.attemptTimer);
    this.leases.forget(this.leaseName);
    await this.attempting;
    if (!this.leading) return;
    await this.lose('this instance stops');
    const seen = this.observed;
    if (!seen) return;
    const now = microTime(new Date());
    const released: LeaseSpec = { leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: seen.spec?.leaseTransitions ?? 0 };
    await this.leases.update(seen, released).catch((error: Error) => this.logger.warn(`giving the lease up failed: ${error.message}`));
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const delayMs = this.leading ? this.timings.retryPeriodMs : this.timings.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR);
    this.attemptTimer = setTimeout(() => {
      this.attempting = this.attempt().finally(() => {
        this.attempting = undefined;
        this.scheduleNext();
      });
    }, delayMs);
    this.attemptTimer.unref();
  }

  private async attempt(): Promise<void> {
    try {
      await this.leases.ready();
      this.observe(this.leases.cached(this.leaseName));
      if (!(await this.tryAcquireOrRenew())) return;
    } catch (error) {
      if (this.leading) this.logger.warn(`renewing the lease failed: ${(error as Error).message}`);
      return;
    }
    if (this.stopped) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(() => void this.lose(`the lease was not renewed for ${this.timings.renewDeadlineMs} ms`), this.timings.renewDeadlineMs);
    this.deadlineTimer.unref();
    if (!this.leading) {
      this.leading = true;
      this.logger.log(`${this.identity} now holds the lease`);
      this.callbacks.started();
    }
  }

  /** client-go's tryAcquireOrRenew: true when this instance holds the Lease, renewed now. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const record: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.floor(this.timings.leaseDurationMs / 1000)),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    const seen = this.observed;
    if (!seen) {
      this.observe(await this.leases.create(this.leaseName, record));
      return true;
    }
    const spec = seen.spec ?? {};
    if (spec.holderIdentity && spec.holderIdentity !== this.identity && this.unexpired(spec, now.getTime())) return false;
    if (spec.holderIdentity === this.identity) {
      record.acquireTime = spec.acquireTime;
      record.leaseTransitions = spec.leaseTransitions ?? 0;
    } else record.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    this.observe(await this.leases.update(seen, record));
    return true;
  }

  private unexpired(spec: LeaseSpec, now: number): boolean {
    return this.observedAt + (spec.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  /** Takes a newer state of the Lease (or its deletion); another holder seen while leading ends the lead at once. */
  private observe(lease: Lease | undefined, deletedAt?: bigint): void {
    if (lease) {
      if (this.observed && versionOf(lease) <= versionOf(this.observed)) return;
      this.observed = lease;
      this.observedAt = Date.now();
      const holder = lease.spec?.holderIdentity;
      if (this.leading && holder !== this.identity) void this.lose(`the lease is now held by ${holder ?? 'no one'}`);
    } else if (deletedAt !== undefined && (!this.observed || deletedAt > versionOf(this.observed))) {
      this.observed = undefined;
    }
  }

  /** Resolves once the work of the lead has ended. */
  private lose(reason: string): Promise<void> {
    clearTimeout(this.deadlineTimer);
    if (!this.leading) return Promise.resolve();
    this.leading = false;
    if (this.stopped) this.logger.log(`stops leading: ${reason}`);
    else this.logger.warn(`stops leading: ${reason}`);
    return this.callbacks.stopped();
  }
}
