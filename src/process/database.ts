import { Logger } from '@nestjs/common';
import { Settings } from '../config/settings';
import { RunningDatabase, startEmbeddedPostgres } from '../storage/database/embedded-postgres';

/** The PostgreSQL of DATABASE_URL, or, when it is unset, the embedded one started in DATA_DIR. */
export async function openDatabase(settings: Settings, logger: Logger): Promise<RunningDatabase> {
  if (settings.DATABASE_URL) return { url: settings.DATABASE_URL, stop: async () => undefined };
  logger.log({ message: 'no DATABASE_URL: starting the embedded PostgreSQL', dataDir: settings.DATA_DIR });
  const pgLogger = new Logger('embedded-postgres');
  return startEmbeddedPostgres(settings.DATA_DIR, settings.EMBEDDED_POSTGRES_PORT, (line) => pgLogger.verbose(line));
}
