import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseGoDuration } from '../apimachinery/parameters/duration';
import { Settings } from '../config/settings';
import { Controller, CONTROLLERS } from './controller';
import { ControllerLeases } from './controller-leases';
import { ControllerMetrics } from './controller-metrics';
import { isControllerEnabled } from './enabled-controllers';
import { LeaderElectionTimings, LeaderElector } from './leader-elector';

/** The Lease of a controller in kube-system. */
export const leaseNameOf = (controller: string) => `pgkube-${controller}`;

/**
 * kube-controller-manager inside the server: each controller `--controllers` enables runs on the one instance that
 * holds the controller's Lease, started when this instance takes the Lease and stopped when it loses it. One Lease
 * per controller rather than upstream's one for all, so that instances whose `--controllers` differ still run every
 * controller some instance enables, and the controllers spread over the instances.
 */
@Injectable()
export class ControllerManager implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ControllerManager');
  /** client-go's identity of a candidate: the machine's name and a UUID of this process */
  readonly identity = `${hostname()}_${randomUUID()}`;
  private readonly electors: LeaderElector[] = [];

  constructor(
    @Inject(CONTROLLERS) private readonly controllers: Controller[],
    private readonly settings: Settings,
    private readonly leases: ControllerLeases,
    private readonly metrics: ControllerMetrics,
  ) {}

  /** Starts electing; the first try of each Lease is over before the server serves, so that a lone instance leads at once. */
  async onApplicationBootstrap(): Promise<void> {
    const timings: LeaderElectionTimings = {
      leaseDurationMs: parseGoDuration(this.settings.LEADER_ELECT_LEASE_DURATION) as number,
      renewDeadlineMs: parseGoDuration(this.settings.LEADER_ELECT_RENEW_DEADLINE) as number,
      retryPeriodMs: parseGoDuration(this.settings.LEADER_ELECT_RETRY_PERIOD) as number,
    };
    const firstTries: Promise<void>[] = [];
    for (const controller of this.controllers) {
      if (!isControllerEnabled(controller.name, this.settings.CONTROLLERS)) {
        this.logger.log(`${controller.name} is disabled`);
        continue;
      }
      const elector = this.elect(controller, timings);
      this.electors.push(elector);
      firstTries.push(elector.start());
    }
    await Promise.all(firstTries);
  }

  /**
   * Stops every controller and gives their Leases up: after the watches have ended (a write held up then holds up
   * nothing but the stop), before the database connections close.
   */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.electors.map((elector) => elector.stop()));
  }

  private elect(controller: Controller, timings: LeaderElectionTimings): LeaderElector {
    const lease = leaseNameOf(controller.name);
    let abort: AbortController | undefined;
    let stopping = Promise.resolve();
    this.metrics.leader.set({ name: lease }, 0);
    const elector = new LeaderElector(lease, this.identity, timings, this.leases, {
      started: () => {
        abort = new AbortController();
        const signal = abort.signal;
        this.metrics.leader.set({ name: lease }, 1);
        // a controller stopped by a lost lease has ended its work before it starts again
        void stopping.then(() => {
          if (!signal.aborted) controller.start(signal);
        });
      },
      stopped: () => {
        abort?.abort();
        this.metrics.leader.set({ name: lease }, 0);
        stopping = controller.stop();
        return stopping;
      },
    });
    return elector;
  }
}
