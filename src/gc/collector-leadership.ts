import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DATABASE_URL } from '../storage/database/database.tokens';

const RETRY_MS = 2000;

/**
 * Which instance runs the garbage collector: the one whose dedicated connection holds a session-level advisory lock.
 * If that instance or its connection goes, PostgreSQL releases the lock and another instance takes over.
 */
@Injectable()
export class CollectorLeadership implements OnApplicationShutdown {
  private readonly logger = new Logger('GarbageCollector');
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private leading = false;

  constructor(@Inject(DATABASE_URL) private readonly databaseUrl: string) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /** Tries to lead now and then every few seconds; `onLead` runs each time this instance becomes the leader. */
  start(onLead: () => void): void {
    const attempt = async () => {
      if (this.stopped || this.leading) return;
      try {
        if (!this.client) this.client = await this.connect();
        const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(7365, 3) AS locked');
        if (rows[0].locked && !this.stopped) {
          this.leading = true;
          this.logger.log('this instance now runs the garbage collector');
          onLead();
        }
      } catch (error) {
        this.lose(`leadership attempt failed: ${(error as Error).message}`);
      }
    };
    void attempt();
    this.timer = setInterval(() => void attempt(), RETRY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.leading = false;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('error', (error) => this.lose(`leadership connection lost: ${error.message}`));
    client.on('end', () => this.lose('leadership connection closed'));
    await client.connect();
    return client;
  }

  private lose(reason: string): void {
    if (this.leading && !this.stopped) this.logger.warn(reason);
    this.leading = false;
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
  }
}
