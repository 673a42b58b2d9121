import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsIP, IsOptional, IsString, Matches, Max, Min, validateSync, ValidateBy } from 'class-validator';
import { flagsOf, settingsFromFlags } from './command-line';
import { Describe } from './setting-description';
import { parseGoDuration } from '../apimachinery/parameters/duration';

const isRegularExpression = (source: string): boolean => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
};

/** A comma list of regular expressions (none of which may itself hold a comma). */
const AreRegularExpressions = () =>
  ValidateBy({
    name: 'areRegularExpressions',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.split(',').every(isRegularExpression),
      defaultMessage: (args) => `${args?.property} must be a comma list of regular expressions`,
    },
  });

/** A positive Go duration (`1h`, `90m`, `30s`), as kube-apiserver's duration flags take them. */
const IsPositiveDuration = () =>
  ValidateBy({
    name: 'isPositiveDuration',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (parseGoDuration(value) ?? 0) > 0,
      defaultMessage: (args) => `${args?.property} must be a positive duration such as 1h, 30m or 45s`,
    },
  });

/** The admission plugins there are, each on by default (kube-apiserver's names). */
export const ADMISSION_PLUGINS = ['NamespaceLifecycle'] as const;

const ADMISSION_PLUGIN_LIST = new RegExp(`^((${ADMISSION_PLUGINS.join('|')})(,(${ADMISSION_PLUGINS.join('|')}))*)?$`);

/** A plugin may not be both enabled and disabled (kube-apiserver refuses that too). */
const NotBothEnabledAndDisabled = () =>
  ValidateBy({
    name: 'notBothEnabledAndDisabled',
    validator: {
      validate: (value: unknown, args) => {
        const enabled = new Set(String((args?.object as Settings).ENABLE_ADMISSION_PLUGINS).split(','));
        return String(value).split(',').every((plugin) => plugin === '' || !enabled.has(plugin));
      },
      defaultMessage: () => 'DISABLE_ADMISSION_PLUGINS and ENABLE_ADMISSION_PLUGINS name the same plugin',
    },
  });

/** The controllers of the controller manager (kube-controller-manager's names), each on by default. */
export const CONTROLLER_NAMES = ['cluster', 'deployment', 'garbagecollector', 'namespace'] as const;

/** kube-controller-manager's `--controllers`: `*`, a controller's name, or `-` and its name, comma-separated. */
const IsControllerList = () =>
  ValidateBy({
    name: 'isControllerList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        value.split(',').every((entry) => entry === '*' || (CONTROLLER_NAMES as readonly string[]).includes(entry.replace(/^-/, ''))),
      defaultMessage: (args) => `${args?.property} must be a comma list of \`*\`, ${CONTROLLER_NAMES.join(', ')}, each of them optionally prefixed with -`,
    },
  });

/** The client-go leader election's rule: renew deadline < lease duration, and > the jittered retry period. */
const FitsLeaderElection = () =>
  ValidateBy({
    name: 'fitsLeaderElection',
    validator: {
      validate: (value: unknown, args) => {
        const settings = args?.object as Settings;
        const renewDeadline = parseGoDuration(String(value)) ?? 0;
        const leaseDuration = parseGoDuration(settings.LEADER_ELECT_LEASE_DURATION) ?? 0;
        const retryPeriod = parseGoDuration(settings.LEADER_ELECT_RETRY_PERIOD) ?? 0;
        return renewDeadline < leaseDuration && renewDeadline > 1.2 * retryPeriod;
      },
      defaultMessage: () => 'LEADER_ELECT_RENEW_DEADLINE must be less than LEADER_ELECT_LEASE_DURATION and more than 1.2 times LEADER_ELECT_RETRY_PERIOD',
    },
  });

/**
 * Every setting of the server, read from the environment and from command-line flags (a flag wins over the
 * environment). Each one's description is what `--help` prints and the README's settings table says.
 */
export class Settings {
  @Describe('PostgreSQL connection string. Unset: an embedded PostgreSQL in `DATA_DIR`.')
  @IsOptional()
  @IsString()
  DATABASE_URL?: string;

  @Describe(
    'PostgreSQL connection string of a streaming standby (e.g. HAProxy\'s replica port) that serves GET and LIST with `resourceVersion=0` (any state, perhaps stale); every other read, every write and the change feed use `DATABASE_URL`. Unset: every read from `DATABASE_URL`',
  )
  @IsString()
  DATABASE_READ_URL = '';

  @Describe('address of the insecure port (plain HTTP, no authentication, full access)')
  @IsIP()
  INSECURE_BIND_ADDRESS = '127.0.0.1';

  @Describe('port of the insecure port (0: any free port)')
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  @Describe('`true` lets the insecure port listen beyond loopback (logs a warning); without it such an address stops the server')
  @IsBoolean()
  INSECURE_ALLOW_REMOTE = false;

  @Describe(
    "regular expressions (a comma list, as `kubectl proxy --accept-hosts`) for hosts the insecure port answers besides the loopback ones (`localhost`, `127.x.x.x`, `[::1]`), matched against the `Host` header without its port; other hosts get 403 (against DNS rebinding) except on `/healthz`, `/livez` and `/readyz`. `INSECURE_ALLOW_REMOTE` adds the bind address's own addresses",
  )
  @AreRegularExpressions()
  INSECURE_ACCEPT_HOSTS = '';

  @Describe('address of the secure port (HTTPS)')
  @IsIP()
  BIND_ADDRESS = '0.0.0.0';

  @Describe('port of the secure port (0: any free port)')
  @IsInt()
  @Min(0)
  @Max(65535)
  SECURE_PORT = 6443;

  @Describe("the secure port's certificate (PEM, may hold the chain). Unset: a self-signed one in `CERT_DIR`")
  @IsString()
  TLS_CERT_FILE = '';

  @Describe('its private key (PEM)')
  @IsString()
  TLS_PRIVATE_KEY_FILE = '';

  @Describe(
    '`apiserver.config.k8s.io/v1` EncryptionConfiguration (YAML or JSON) naming the resources (`secrets`, `configmaps`) whose values are stored encrypted and the providers (`aesgcm`, `aescbc`, `secretbox`, `identity`; the first writes, all read); unset: stored in the clear',
  )
  @IsString()
  ENCRYPTION_PROVIDER_CONFIG = '';

  @Describe('where the self-signed certificate (`apiserver.crt`, `apiserver.key`) is made once and kept')
  @IsString()
  CERT_DIR = './.data-certs';

  @Describe("CA bundle for client certificates: the subject's CN is the user, its O entries the groups")
  @IsString()
  CLIENT_CA_FILE = '';

  @Describe('static bearer tokens, a CSV line each: `token,user,uid,"group1,group2"` (read at start)')
  @IsString()
  TOKEN_AUTH_FILE = '';

  @Describe('OpenID Connect issuer (https) whose ID tokens are accepted as bearer tokens')
  @IsString()
  OIDC_ISSUER_URL = '';

  @Describe('the audience an ID token must have (needed with the issuer)')
  @IsString()
  OIDC_CLIENT_ID = '';

  @Describe('the claim that names the user')
  @IsString()
  OIDC_USERNAME_CLAIM = 'sub';

  @Describe('put before OIDC user names; unset: `<issuer>#` for claims other than `email`; `-`: nothing')
  @IsString()
  OIDC_USERNAME_PREFIX = '';

  @Describe("the claim (string or list) that holds the user's groups")
  @IsString()
  OIDC_GROUPS_CLAIM = '';

  @Describe('put before OIDC group names')
  @IsString()
  OIDC_GROUPS_PREFIX = '';

  @Describe("CA bundle the issuer's certificate is verified against (unset: the system's)")
  @IsString()
  OIDC_CA_FILE = '';

  @Describe(
    'PEM private key (RSA: RS256, EC: ES256/384/512) that signs service account tokens. Unset: an RSA key made once and kept in `CERT_DIR` (`sa.key`)',
  )
  @IsString()
  SERVICE_ACCOUNT_SIGNING_KEY_FILE = '';

  @Describe('PEM files (a comma list; public or private keys, or certificates) whose keys verify service account tokens. Unset: the signing key')
  @IsString()
  SERVICE_ACCOUNT_KEY_FILE = '';

  @Describe('issuers of service account tokens, a comma list: the first is put in new tokens (`iss`), all are accepted')
  @IsString()
  @Matches(/^[^,]+(,[^,]+)*$/, { message: 'SERVICE_ACCOUNT_ISSUER must be a comma list of issuers' })
  SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

  @Describe('the audiences a token must name one of to authenticate here, a comma list (a TokenRequest without audiences gets them). Unset: the issuers')
  @IsString()
  API_AUDIENCES = '';

  @Describe(
    "the `jwks_uri` of the OpenID discovery document. Unset: `https://<BIND_ADDRESS, or the machine's name when that is 0.0.0.0 or ::>:<SECURE_PORT>/openid/v1/jwks`",
  )
  @IsString()
  SERVICE_ACCOUNT_JWKS_URI = '';

  @Describe('requests without credentials on the secure port are `system:anonymous` (group `system:unauthenticated`)')
  @IsBoolean()
  ANONYMOUS_AUTH = true;

  @Describe(
    'authorizers of the secure port, a comma list tried in order until one allows or denies: `RBAC`, `AlwaysAllow`, `AlwaysDeny` (the insecure port allows everything)',
  )
  @Matches(/^(AlwaysAllow|AlwaysDeny|RBAC)(,(AlwaysAllow|AlwaysDeny|RBAC))*$/, {
    message: 'AUTHORIZATION_MODE must be a comma list of RBAC, AlwaysAllow and AlwaysDeny',
  })
  AUTHORIZATION_MODE = 'RBAC';

  @Describe('admission plugins to turn on besides the default ones, a comma list: `NamespaceLifecycle` (on by default)')
  @Matches(ADMISSION_PLUGIN_LIST, { message: `ENABLE_ADMISSION_PLUGINS must be a comma list of ${ADMISSION_PLUGINS.join(', ')}` })
  ENABLE_ADMISSION_PLUGINS = '';

  @Describe(
    'admission plugins to turn off, a comma list: `NamespaceLifecycle` (without it, objects may be created in namespaces that do not exist or are terminating)',
  )
  @Matches(ADMISSION_PLUGIN_LIST, { message: `DISABLE_ADMISSION_PLUGINS must be a comma list of ${ADMISSION_PLUGINS.join(', ')}` })
  @NotBothEnabledAndDisabled()
  DISABLE_ADMISSION_PLUGINS = '';

  @Describe('data folder of the embedded PostgreSQL (kept across restarts)')
  @IsString()
  DATA_DIR = './.data';

  @Describe('port of the embedded PostgreSQL, on 127.0.0.1 only')
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_POSTGRES_PORT = 55432;

  @Describe(
    'server processes sharing the ports, each a full instance (its own pool, change feed and audit buffers): a number, or `auto` for one per core. Above 1, a primary process starts the embedded PostgreSQL and the workers, and restarts a worker that dies',
  )
  @Matches(/^(auto|[1-9]\d{0,3})$/, { message: 'WORKERS must be a number from 1 to 9999, or auto' })
  WORKERS = '1';

  @Describe("connections in each instance's pool")
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE = 20;

  @Describe('least level logged: `error`, `warn`, `log`, `debug` or `verbose`')
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @Describe('seconds; a watch without `timeoutSeconds` lasts between this and twice this')
  @IsInt()
  @Min(1)
  MIN_REQUEST_TIMEOUT = 1800;

  @Describe('how long an Event is kept after its last write (a duration: `1h`, `30m`, `45s`); the compactor deletes older ones')
  @IsPositiveDuration()
  EVENT_TTL = '1h';

  @Describe('non-watch reads served at once; more get 429 (0: no limit)')
  @IsInt()
  @Min(0)
  MAX_REQUESTS_INFLIGHT = 400;

  @Describe('writes served at once; more get 429 (0: no limit)')
  @IsInt()
  @Min(0)
  MAX_MUTATING_REQUESTS_INFLIGHT = 200;

  @Describe('after SIGTERM, `/readyz` fails this long before the server stops accepting')
  @IsInt()
  @Min(0)
  SHUTDOWN_DELAY_SECONDS = 0;

  @Describe('changes older than this are compacted away (older watches get 410)')
  @IsInt()
  @Min(1)
  CHANGE_LOG_RETENTION_SECONDS = 3600;

  @Describe('at most this many changes are kept')
  @IsInt()
  @Min(1)
  CHANGE_LOG_RETENTION_COUNT = 100_000;

  @Describe('how often each instance compacts (one at a time does the work)')
  @IsInt()
  @Min(1)
  COMPACTION_INTERVAL_SECONDS = 60;

  @Describe('how often the garbage collector re-checks every owner and dependent')
  @IsInt()
  @Min(1)
  GC_SWEEP_INTERVAL_SECONDS = 60;

  @Describe(`the controllers to run, a comma list: \`*\` (all on by default), a name turns one on, \`-name\` off: ${CONTROLLER_NAMES.map((name) => `\`${name}\``).join(', ')}`)
  @IsControllerList()
  CONTROLLERS = '*';

  @Describe("how long a controller's Lease in `kube-system` holds without renewal before another instance may take it (a duration)")
  @IsPositiveDuration()
  LEADER_ELECT_LEASE_DURATION = '15s';

  @Describe("how long the instance running a controller keeps trying to renew its Lease before it stops the controller (a duration)")
  @IsPositiveDuration()
  @FitsLeaderElection()
  LEADER_ELECT_RENEW_DEADLINE = '10s';

  @Describe('how often an instance tries to take or renew a Lease (a duration)')
  @IsPositiveDuration()
  LEADER_ELECT_RETRY_PERIOD = '2s';

  @Describe("how often the cluster controller probes each federation Cluster's `/healthz` and updates its Ready and Offline conditions (a duration)")
  @IsPositiveDuration()
  CLUSTER_MONITOR_PERIOD = '40s';

  @Describe("namespace of the Secrets a federation Cluster's `spec.secretRef` names (kubefed's federation system namespace)")
  @Matches(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { message: 'FEDERATION_SYSTEM_NAMESPACE must be a namespace name (a DNS label)' })
  FEDERATION_SYSTEM_NAMESPACE = 'federation-system';

  @Describe('`audit.k8s.io/v1` Policy (YAML or JSON); unset: nothing is audited')
  @IsString()
  AUDIT_POLICY_FILE = '';

  @Describe('file the audit events are appended to as JSON lines (`-`: standard output)')
  @IsString()
  AUDIT_LOG_PATH = '';

  @Describe('megabytes before the audit log is rotated (0: never)')
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXSIZE = 0;

  @Describe('rotated audit logs kept (0: all)')
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXBACKUP = 0;

  @Describe('days a rotated audit log is kept (0: forever)')
  @IsInt()
  @Min(0)
  AUDIT_LOG_MAXAGE = 0;

  @Describe('audit events go to the `audit_events` table too (with a policy)')
  @IsBoolean()
  AUDIT_DATABASE = true;

  @Describe('audit events each sink holds while they wait to be written; beyond that they are dropped and counted')
  @IsInt()
  @Min(1)
  AUDIT_LOG_BATCH_BUFFER_SIZE = 10_000;

  @Describe('audit events a sink writes at once at most; a batch goes when it is full or a second after its first event')
  @IsInt()
  @Min(1)
  AUDIT_LOG_BATCH_MAX_SIZE = 4000;
}

/** The names of every setting, in the order of the class. */
// DATABASE_URL has no default, so it is named even where class fields without one are left out
export const SETTING_NAMES = [...new Set(['DATABASE_URL', ...Object.keys(new Settings())])] as (keyof Settings)[];

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
