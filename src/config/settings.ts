import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsIP, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
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

  /** address of the insecure port (plain HTTP, no authentication, full access) */
  @IsIP()
  INSECURE_BIND_ADDRESS = '127.0.0.1';

  /** port of the insecure port; 0 takes any free port */
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  /** serve the insecure port on an address other than loopback (every client that reaches it can do anything) */
  @IsBoolean()
  INSECURE_ALLOW_REMOTE = false;

  /** address of the secure port (HTTPS, authenticated) */
  @IsIP()
  BIND_ADDRESS = '0.0.0.0';

  /** port of the secure port; 0 takes any free port */
  @IsInt()
  @Min(0)
  @Max(65535)
  SECURE_PORT = 6443;

  /** the secure port's certificate (PEM; may carry the chain); unset: a self-signed one in CERT_DIR */
  @IsString()
  TLS_CERT_FILE = '';

  /** the private key of TLS_CERT_FILE (PEM) */
  @IsString()
  TLS_PRIVATE_KEY_FILE = '';

  /** where the self-signed certificate is made once and kept when TLS_CERT_FILE is not given */
  @IsString()
  CERT_DIR = './.data-certs';

  /** CA bundle that client certificates are verified against (the x509 authenticator); unset: off */
  @IsString()
  CLIENT_CA_FILE = '';

  /** CSV file of bearer tokens: token,user,uid,"group1,group2" (the token authenticator); unset: off */
  @IsString()
  TOKEN_AUTH_FILE = '';

  /** OpenID Connect issuer whose ID tokens are accepted as bearer tokens (https); unset: off */
  @IsString()
  OIDC_ISSUER_URL = '';

  /** the audience (client id) an ID token must be issued for */
  @IsString()
  OIDC_CLIENT_ID = '';

  /** the claim that names the user */
  @IsString()
  OIDC_USERNAME_CLAIM = 'sub';

  /** put before every OIDC user name; unset: the issuer URL and '#' for claims other than email; '-': nothing */
  @IsString()
  OIDC_USERNAME_PREFIX = '';

  /** the claim (a string or a list of strings) that holds the user's groups; unset: no groups from the token */
  @IsString()
  OIDC_GROUPS_CLAIM = '';

  /** put before every OIDC group name */
  @IsString()
  OIDC_GROUPS_PREFIX = '';

  /** CA bundle that the issuer's certificate is verified against; unset: the system's */
  @IsString()
  OIDC_CA_FILE = '';

  /** requests on the secure port without credentials are served as system:anonymous */
  @IsBoolean()
  ANONYMOUS_AUTH = true;

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

  /** audit.k8s.io/v1 Policy (YAML or JSON) that chooses what is audited; unset: nothing is */
  @IsString()
  AUDIT_POLICY_FILE = '';

  /** file the audit events are appended to as JSON lines; '-' is standard output; unset: no file */
  @IsString()
  AUDIT_LOG_PATH = '';

  /** megabytes an audit log file reaches before it is rotated; 0: never */
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXSIZE = 0;

  /** rotated audit log files kept; 0: all */
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXBACKUP = 0;

  /** days a rotated audit log file is kept; 0: forever */
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXAGE = 0;

  /** write the audit events to the audit_events table too */
  @IsBoolean()
  AUDIT_DATABASE = true;

  /** audit events held per sink while they wait to be written; beyond it they are dropped and counted */
  @IsInt()
  @Min(1)
  AUDIT_LOG_BATCH_BUFFER_SIZE = 10_000;
}

/** The names of every setting, in the order of the class. */
export const SETTING_NAMES = ['DATABASE_URL', ...Object.keys(new Settings())] as (keyof Settings)[];

const typed = (type: string) => new Set(SETTING_NAMES.filter((key) => typeof new Settings()[key] === type));
const NUMERIC = typed('number');
const BOOLEAN = typed('boolean');

function parseValue(key: keyof Settings, value: string): unknown {
  if (NUMERIC.has(key) && /^-?\d+$/.test(value)) return Number(value);
  if (BOOLEAN.has(key) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

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
    raw[key] = parseValue(key, value);
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
