import { Inject, Injectable } from '@nestjs/common';
import createSubscriber from 'pg-listen';
import { DATABASE_URL } from '../database/database.tokens';

/** The channel the objects triggers notify on commit (see prisma/migrations/0001_init). */
const CHANNEL = 'pgkube_changes';

/** What a listener is told about the committed changes and about its connection. */
export interface ChangeNotificationHandlers {
  /** a change of `resource` committed (its resourceKey; empty from a trigger older than migration 0014) */
  changed(resource: string): void;
  /** the connection is up: at first, and again after a loss (the notifications sent meanwhile are lost) */
  connected(): void;
  /** the connection was lost and this is the `attempt`th try to connect again */
  reconnecting(attempt: number): void;
  failed(error: Error): void;
}

export interface ChangeListener {
  close(): Promise<void>;
}

/**
 * The notifications of committed changes, on a connection of their own (LISTEN holds a session), which reconnects
 * without end and checks itself every 10 s for a silent break.
 */
@Injectable()
export class ChangeNotifications {
  constructor(@Inject(DATABASE_URL) private readonly databaseUrl: string) {}

  /** Starts listening; resolves once notifications are being received. */
  async listen(handlers: ChangeNotificationHandlers): Promise<ChangeListener> {
    const listener = createSubscriber(
      { connectionString: this.databaseUrl },
      {
        paranoidChecking: 10_000,
        retryLimit: Infinity,
        retryTimeout: Infinity,
        retryInterval: (attempt) => Math.min(2000, 100 * 2 ** attempt),
        parse: (payload) => payload,
      },
    );
    listener.notifications.on(CHANNEL, (resource: string) => handlers.changed(resource));
    listener.events.on('connected', () => handlers.connected());
    listener.events.on('reconnect', (attempt) => handlers.reconnecting(attempt));
    listener.events.on('error', (error) => handlers.failed(error));
    await listener.connect();
    await listener.listenTo(CHANNEL);
    return listener;
  }
}
