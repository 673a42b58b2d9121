import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsIP, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';

/** Every setting of the server, read from the environment (documented in .env.example and the README). */
export class Settings {
  /** PostgreSQL connection string; unset means an embedded PostgreSQL in `dataDir` */
  @IsOptional()
  @IsString()
  DATABASE_URL?: string;

  @IsIP()
  BIND_ADDRESS = '127.0.0.1';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  /** data folder of the embedded PostgreSQL */
  @IsString()
  DATA_DIR = './.data';

  /** port of the embedded PostgreSQL (127.0.0.1 only) */
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_POSTGRES_PORT = 55432;

  /** connections in this instance's pool */
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE = 20;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** changes older than this are compacted away (a watch from before them gets 410 Gone) */
  @IsInt()
  @Min(1)
  CHANGE_LOG_RETENTION_SECONDS = 3600;

  /** at most this many changes are kept */
  @IsInt()
  @Min(1)
  CHANGE_LOG_RETENTION_COUNT = 100_000;

  /** how often each instance compacts the change log (one instance at a time does the work) */
  @IsInt()
  @Min(1)
  COMPACTION_INTERVAL_SECONDS = 60;

  /** how often the garbage collector re-checks every owner and dependent (it also acts on each change at once) */
  @IsInt()
  @Min(1)
  GC_SWEEP_INTERVAL_SECONDS = 60;
}

const NUMERIC: (keyof Settings)[] = [
  'PORT',
  'EMBEDDED_POSTGRES_PORT',
  'DATABASE_POOL_SIZE',
  'CHANGE_LOG_RETENTION_SECONDS',
  'CHANGE_LOG_RETENTION_COUNT',
  'COMPACTION_INTERVAL_SECONDS',
  'GC_SWEEP_INTERVAL_SECONDS',
];

/** Reads and checks the settings; a bad value stops the server with a message naming it. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(new Settings()).concat('DATABASE_URL')) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    raw[key] = NUMERIC.includes(key as keyof Settings) && /^\d+$/.test(value) ? Number(value) : value;
  }
  const settings = plainToInstance(Settings, raw, { exposeDefaultValues: true });
  const errors = validateSync(settings);
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new Error(`invalid settings:\n  ${lines.join('\n  ')}`);
  }
  return settings;
}
