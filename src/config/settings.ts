import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsIP, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import { flagsOf, settingsFromFlags } from './command-line';

/**
 * Every setting of the server, read from the environment and from command-line flags (documented in .env.example
 * and the README; a flag wins over the environment).
 */
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

  /** a watch without timeoutSeconds lasts between this and twice this (kube-apiserver's --min-request-timeout) */
  @IsInt()
  @Min(1)
  MIN_REQUEST_TIMEOUT = 1800;

  /** non-watch reads served at once before 429 Too Many Requests; 0 means no limit */
  @IsInt()
  @Min(0)
  MAX_REQUESTS_INFLIGHT = 400;

  /** writes served at once before 429 Too Many Requests; 0 means no limit */
  @IsInt()
  @Min(0)
  MAX_MUTATING_REQUESTS_INFLIGHT = 200;

  /** after SIGTERM, /readyz fails for this long before the server stops accepting (load balancers notice) */
  @IsInt()
  @Min(0)
  SHUTDOWN_DELAY_SECONDS = 0;

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

/** The names of every setting, in the order of the class. */
export const SETTING_NAMES = ['DATABASE_URL', ...Object.keys(new Settings())] as (keyof Settings)[];

const NUMERIC = new Set(SETTING_NAMES.filter((key) => typeof new Settings()[key] === 'number'));

/**
 * Reads and checks the settings from the environment and the command line (flags win); a bad value or an unknown
 * flag stops the server with a message naming it.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, argv: string[] = []): Settings {
  const given: Record<string, string | undefined> = { ...env, ...settingsFromFlags(argv, SETTING_NAMES) };
  const raw: Record<string, unknown> = {};
  for (const key of SETTING_NAMES) {
    const value = given[key];
    if (value === undefined || value === '') continue;
    raw[key] = NUMERIC.has(key) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  const settings = plainToInstance(Settings, raw, { exposeDefaultValues: true });
  const errors = validateSync(settings);
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      // a value that is not a number at all is told so, not also that it is out of range
      const constraints = e.constraints ?? {};
      const messages = constraints.isInt ? [constraints.isInt] : Object.values(constraints);
      return `${e.property} (${flagsOf(e.property).join(', ')}) = ${JSON.stringify(e.value)}: ${messages.join('; ')}`;
    });
    throw new Error(`invalid settings:\n  ${lines.join('\n  ')}`);
  }
  return settings;
}
