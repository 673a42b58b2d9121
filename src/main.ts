import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { loadSettings } from './config/settings';
import { RunningDatabase, startEmbeddedPostgres } from './database/embedded-postgres';

async function main(): Promise<void> {
  const logger = new Logger('pgkube');
  const settings = loadSettings();
  let database: RunningDatabase;
  if (settings.DATABASE_URL) {
    database = { url: settings.DATABASE_URL, stop: async () => undefined };
  } else {
    logger.log(`no DATABASE_URL: starting the embedded PostgreSQL in ${settings.DATA_DIR}`);
    const pgLogger = new Logger('embedded-postgres');
    database = await startEmbeddedPostgres(settings.DATA_DIR, settings.EMBEDDED_POSTGRES_PORT, (line) => pgLogger.verbose(line));
  }
  const app = await createApp(settings, database.url);
  await app.listen(settings.PORT, settings.BIND_ADDRESS);
  logger.log(`serving on http://${settings.BIND_ADDRESS}:${settings.PORT}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
