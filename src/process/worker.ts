import { Logger } from '@nestjs/common';
import { Settings } from '../config/settings';
import { runServerInstance, ServingAddresses } from './server-instance';

/** What a worker tells the primary once it serves. */
export interface WorkerServing {
  serving: ServingAddresses;
}

/**
 * A worker of `--workers N`: a full server instance over the primary's database (DATABASE_URL as the primary passed
 * it; the primary stops the database). Its listening sockets are the primary's, shared through the cluster module.
 * It stops gracefully on the signal the primary forwards; when the primary is gone, the cluster module ends it at once.
 */
export async function runWorker(settings: Settings): Promise<void> {
  const logger = new Logger('pgkube');
  const database = { url: settings.DATABASE_URL as string, stop: async () => undefined };
  await runServerInstance(settings, database, (serving) => {
    logger.log({ message: 'worker serving', ...serving });
    process.send?.({ serving } satisfies WorkerServing);
  });
}
