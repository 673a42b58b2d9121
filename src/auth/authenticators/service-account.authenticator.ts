import { Injectable } from '@nestjs/common';
import { serviceAccountGroups, UserInfo } from '../../apimachinery/authentication/user-info';
import { StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { SERVICE_ACCOUNTS } from '../../apis/core/core.kinds';
import { BoundReference, serviceAccountUsername, ServiceAccountTokens } from '../../apis/core/serviceaccount/service-account-tokens';
import { BOUND_KINDS } from '../../apis/core/serviceaccount/token-request';
import { KindKey } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { AuthenticationResult, TokenAuthenticator } from './authenticator';

const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';
/** an object deleted longer ago than this no longer backs a token (upstream's JWT leeway) */
const DELETION_LEEWAY_MS = 60_000;

/**
 * Service account tokens (upstream's service account JWT authenticator): a token of one of our issuers, signed by one
 * of the verifying keys, for one of the API audiences and within its times, whose service account (and the Secret it
 * is bound to, if any) still exists with the uid the token names. The user is `system:serviceaccount:<ns>:<name>`.
 */
@Injectable()
export class ServiceAccountAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly tokens: ServiceAccountTokens,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const verified = await this.tokens.verify(token);
    if (!verified || 'error' in verified) return verified;
    const { namespace, serviceaccount, secret } = verified.claims['kubernetes.io'];
    const account = await this.current(SERVICE_ACCOUNTS, namespace, serviceaccount.name);
    if (account instanceof StatusError) return { error: account.message };
    if (deletedBeforeLeeway(account)) return { error: `service account ${namespace}/${serviceaccount.name} has been deleted` };
    if (account.metadata.uid !== serviceaccount.uid) {
      return { error: `service account UID (${account.metadata.uid}) does not match claim (${serviceaccount.uid})` };
    }
    if (secret) {
      const invalid = await this.secretInvalidity(namespace, secret);
      if (invalid) return { error: invalid };
    }
    const user: UserInfo = {
      username: serviceAccountUsername(namespace, serviceaccount.name),
      uid: serviceaccount.uid,
      groups: serviceAccountGroups(namespace),
      ...(typeof verified.claims.jti === 'string' ? { extra: { [CREDENTIAL_ID]: [`JTI=${verified.claims.jti}`] } } : {}),
    };
    return { user };
  }

  /** Why a token bound to this Secret no longer authenticates, if it does not. */
  private async secretInvalidity(namespace: string, ref: BoundReference): Promise<string | undefined> {
    const secret = await this.current(BOUND_KINDS.Secret, namespace, ref.name);
    if (secret instanceof StatusError || deletedBeforeLeeway(secret)) return 'service account token has been invalidated';
    if (secret.metadata.uid !== ref.uid) return `secret UID (${secret.metadata.uid}) does not match service account secret ref claim (${ref.uid})`;
    return undefined;
  }

  /** The stored object, or the error of its absence (a kind this server does not serve counts as absent). */
  private async current(key: KindKey, namespace: string, name: string): Promise<KubeObject | StatusError> {
    const def = this.kinds.find(key.group, key.version, key.resource);
    if (!def) return new StatusError(404, 'NotFound', `the server does not serve ${key.resource}`);
    try {
      return await this.registry.get(def, namespace, name);
    } catch (error) {
      if (error instanceof StatusError) return error;
      throw error;
    }
  }
}

function deletedBeforeLeeway(object: KubeObject): boolean {
  const deleted = object.metadata.deletionTimestamp;
  return typeof deleted === 'string' && Date.parse(deleted) < Date.now() - DELETION_LEEWAY_MS;
}
