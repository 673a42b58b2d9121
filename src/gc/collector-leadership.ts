import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { LeadershipLocks, LeadershipSession } from '../storage/leadership-locks';

const RETRY_MS = 2000;

/**
 * Which instance runs the garbage collector: the one whose dedicated connection holds a session-level advisory lock.
 * If that instance or its connection goes, PostgreSQL releases the lock and another instance takes over.
 */
@Injectable()
export class CollectorLeadership implements OnApplicationShutdown {
  private readonly logger = new Logger('GarbageCollector');
  private readonly session: LeadershipSession;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private leading = false;
  /** other controllers that run on the instance that runs the garbage collector */
  private readonly followers: (() => void)[] = [];

  constructor(locks: LeadershipLocks) {
    this.session = locks.session('garbage-collector', (reason) => this.lose(reason));
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Tries to lead now and then every few seconds; `onLead` runs each time this instance becomes the leader. */
  start(onLead: () => void): void {
    const attempt = async () => {
      if (this.stopped || this.leading) return;
      try {
        if ((await this.session.tryLead()) && !this.stopped) {
          this.leading = true;
          this.logger.log('this instance now runs the garbage collector');
          onLead();
          for (const follower of this.followers) follower();
        }
      } catch (error) {
        this.lose(`leadership attempt failed: ${(error as Error).message}`);
      }
    };
    void attempt();
    this.timer = setInterval(() => void attempt(), RETRY_MS);
    this.timer.unref();
  }

  /** Runs `onLead` too each time this instance becomes the leader (a controller that runs where the collector does). */
  follow(onLead: () => void): void {
    this.followers.push(onLead);
    if (this.leading) onLead();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.leading = false;
    await this.session.drop();
  }

  private lose(reason: string): void {
    if (this.leading && !this.stopped) this.logger.warn(reason);
    this.leading = false;
    void this.session.drop();
  }
}
