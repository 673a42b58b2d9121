import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { createApp } from './app';
import { helpText } from './config/help';
import { loadSettings } from './config/settings';
import { RunningDatabase, startEmbeddedPostgres } from './storage/database/embedded-postgres';
import { ShutdownSignal } from './health/shutdown-signal';
import { JsonLogger } from './logging/json-logger';
import { SecureServer } from './serving/secure-server';
import { isLoopback } from './serving/loopback';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const settings = loadSettings(process.env, process.argv.slice(2));
  Logger.overrideLogger(new JsonLogger(settings.LOG_LEVEL));
  const logger = new Logger('pgkube');
  if (!isLoopback(settings.INSECURE_BIND_ADDRESS)) {
    if (!settings.INSECURE_ALLOW_REMOTE) {
      throw new Error(
        `--insecure-bind-address=${settings.INSECURE_BIND_ADDRESS} serves plain HTTP without authentication beyond this machine: ` +
          'give --insecure-allow-remote=true to mean it, or use the secure port',
      );
    }
    logger.warn({ message: 'the insecure port serves every client that reaches it, without TLS or authentication', address: settings.INSECURE_BIND_ADDRESS });
  }
  let database: RunningDatabase;
  if (settings.DATABASE_URL) {
    database = { url: settings.DATABASE_URL, stop: async () => undefined };
  } else {
    logger.log({ message: 'no DATABASE_URL: starting the embedded PostgreSQL', dataDir: settings.DATA_DIR });
    const pgLogger = new Logger('embedded-postgres');
    database = await startEmbeddedPostgres(settings.DATA_DIR, settings.EMBEDDED_POSTGRES_PORT, (line) => pgLogger.verbose(line));
  }
  const app = await createApp(settings, database.url);
  let stopping = false;
  // Readiness fails first (SHUTDOWN_DELAY_SECONDS for load balancers to notice); then app.close() ends the watch
  // streams, stops accepting connections, waits for the requests in flight, and releases the database.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ message: 'shutting down', signal, delaySeconds: settings.SHUTDOWN_DELAY_SECONDS });
    app.get(ShutdownSignal).request();
    await sleep(settings.SHUTDOWN_DELAY_SECONDS * 1000);
    await app.close();
    await database.stop();
    logger.log({ message: 'stopped' });
    process.exit(0);
  };
  // before listening: a signal that comes while the ports open still stops the server and its PostgreSQL
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.listen(settings.PORT, settings.INSECURE_BIND_ADDRESS);
  const { address, port } = app.getHttpServer().address() as AddressInfo;
  const secure = await app.get(SecureServer).listen();
  logger.log({ message: 'serving', address, port, secureAddress: secure.address, securePort: secure.port });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
