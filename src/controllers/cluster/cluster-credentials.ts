import { load } from 'js-yaml';

/** How the cluster controller authenticates to a member cluster and what it trusts of the member's certificate. */
export interface ClusterCredentials {
  /** PEM of the CAs the member's serving certificate must chain to; unset: the system's CAs */
  ca?: string;
  /** PEM client certificate and key */
  cert?: string;
  key?: string;
  /** the kubeconfig says `insecure-skip-tls-verify: true` (client-go honours it; nothing else turns verification off) */
  insecureSkipTlsVerify?: boolean;
  /** the name the certificate must hold, when not the address's host (`tls-server-name`) */
  serverName?: string;
  /** the Authorization header: a bearer token or basic credentials */
  authorization?: string;
}

/** The Secret key of a serialized kubeconfig (federation's KubeconfigSecretDataKey). */
const KUBECONFIG_KEY = 'kubeconfig';

const decoded = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/**
 * The credentials in a Secret's data (values base64, as the API serves them), as federation read them: a service
 * account's `token` with its `ca.crt` (both or neither), else the kubeconfig under `kubeconfig`. Throws a message that
 * says what is wrong with the Secret.
 */
export function credentialsFromSecret(data: Record<string, string> = {}): ClusterCredentials {
  const { token, 'ca.crt': ca, [KUBECONFIG_KEY]: kubeconfig } = data;
  if ((token === undefined) !== (ca === undefined)) throw new Error("the secret should have values for either both 'ca.crt' and 'token' in its data, or neither");
  if (token !== undefined) return { ca: decoded(ca), authorization: `Bearer ${decoded(token)}` };
  if (kubeconfig === undefined) throw new Error(`the secret does not have data with key ${KUBECONFIG_KEY}`);
  return credentialsFromKubeconfig(decoded(kubeconfig));
}

type Fields = Record<string, unknown>;

/** File references would make the server read its own files for whoever may write Secrets: only inline data is taken. */
const FILE_FIELDS = ['certificate-authority', 'client-certificate', 'client-key', 'tokenFile', 'exec', 'auth-provider'];

function entry(list: unknown, kind: 'cluster' | 'user' | 'context', name: unknown): Fields {
  const found = Array.isArray(list) ? (list as Fields[]).find((item) => item?.name === name) : undefined;
  const fields = found?.[kind];
  if (!fields || typeof fields !== 'object') throw new Error(`the kubeconfig has no ${kind} ${JSON.stringify(name)}`);
  return fields as Fields;
}

const text = (fields: Fields, key: string): string | undefined => (typeof fields[key] === 'string' && fields[key] !== '' ? (fields[key] as string) : undefined);

/**
 * The credentials of a kubeconfig's current context (or of its only context): the cluster's CA and TLS settings and
 * the user's token, client certificate or basic credentials. Its server is not used: the Cluster's address is.
 */
export function credentialsFromKubeconfig(yaml: string): ClusterCredentials {
  let config: Fields;
  try {
    config = load(yaml) as Fields;
  } catch (error) {
    throw new Error(`the kubeconfig is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!config || typeof config !== 'object') throw new Error('the kubeconfig is not a YAML mapping');
  const contexts = Array.isArray(config.contexts) ? (config.contexts as Fields[]) : [];
  const contextName = text(config, 'current-context') ?? (contexts.length === 1 ? contexts[0]?.name : undefined);
  if (contextName === undefined) throw new Error('the kubeconfig has no current-context');
  const context = entry(config.contexts, 'context', contextName);
  const cluster = entry(config.clusters, 'cluster', context.cluster);
  const user = context.user === undefined ? {} : entry(config.users, 'user', context.user);
  const fileField = FILE_FIELDS.find((field) => cluster[field] !== undefined || user[field] !== undefined);
  if (fileField) throw new Error(`the kubeconfig uses ${fileField}, which the cluster controller does not take (only inline data)`);
  const token = text(user, 'token');
  const username = text(user, 'username');
  const basic = username !== undefined ? `Basic ${Buffer.from(`${username}:${text(user, 'password') ?? ''}`).toString('base64')}` : undefined;
  const caData = text(cluster, 'certificate-authority-data');
  const certData = text(user, 'client-certificate-data');
  const keyData = text(user, 'client-key-data');
  return {
    ca: caData && decoded(caData),
    cert: certData && decoded(certData),
    key: keyData && decoded(keyData),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    serverName: text(cluster, 'tls-server-name'),
    authorization: token !== undefined ? `Bearer ${token}` : basic,
  };
}
