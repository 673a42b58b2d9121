import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import cluster from 'node:cluster';
import { helpText } from './config/help';
import { loadSettings, Settings } from './config/settings';
import { JsonLogger } from './logging/json-logger';
import { isLoopback } from './serving/loopback';
import { openDatabase } from './process/database';
import { runPrimary } from './process/primary';
import type { ServingAddresses } from './process/server-instance';
import { workerCount } from './process/worker-count';

/** A server that listens beyond loopback on the insecure port must have been told so. */
function checkInsecurePort(settings: Settings, logger: Logger): void {
  if (isLoopback(settings.INSECURE_BIND_ADDRESS)) return;
  if (!settings.INSECURE_ALLOW_REMOTE) {
    throw new Error(
      `--insecure-bind-address=${settings.INSECURE_BIND_ADDRESS} serves plain HTTP without authentication beyond this machine: ` +
        'give --insecure-allow-remote=true to mean it, or use the secure port',
    );
  }
  logger.warn({ message: 'the insecure port serves every client that reaches it, without TLS or authentication', address: settings.INSECURE_BIND_ADDRESS });
}

/**
 * One process serving (WORKERS 1), or with --workers N a primary and N workers (the primary reads no requests and
 * loads none of the server's modules).
 */
async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const settings = loadSettings(process.env, process.argv.slice(2));
  Logger.overrideLogger(new JsonLogger(settings.LOG_LEVEL));
  if (cluster.isWorker) {
    const { runWorker } = await import('./process/worker.js');
    return runWorker(settings);
  }
  const logger = new Logger('pgkube');
  checkInsecurePort(settings, logger);
  const workers = workerCount(settings.WORKERS);
  if (workers > 1) return runPrimary(settings, workers);
  const database = await openDatabase(settings, logger);
  const { runServerInstance } = await import('./process/server-instance.js');
  await runServerInstance(settings, database, (serving: ServingAddresses) => logger.log({ message: 'serving', ...serving }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
