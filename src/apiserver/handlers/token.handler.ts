import { Injectable } from '@nestjs/common';
import { fieldErrors } from '../../apimachinery/errors/field-error';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { formatTimestamp, KubeObject, ObjectMeta } from '../../apimachinery/meta/kube-object';
import { ServiceAccountTokens } from '../../apis/core/serviceaccount/service-account-tokens';
import { TokenRequest } from '../../apis/core/serviceaccount/token-request.schema';
import { KindDefinition, TokenBinding } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { checkPathName, readObject } from './request-body';
import { subresourceBinding } from './subresource';


/** Names a request kind's errors as upstream does: `TokenRequest.authentication.k8s.io`. */
const requestNames = (kind: KindDefinition) => ({ group: kind.group, kind: kind.kind, resource: kind.kind });

/** A request's name and namespace, when it gives them, must be those of the path (422 on the first that is not). */
function checkAgainstPath(requestKind: KindDefinition, meta: ObjectMeta, name: string, namespace: string): void {
  const mismatch =
    meta.name && meta.name !== name
      ? fieldErrors.invalid('metadata.name', meta.name, 'must match the service account name if specified')
      : meta.namespace && meta.namespace !== namespace
        ? fieldErrors.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')
        : undefined;
  if (mismatch) throw apiErrors.invalid(requestNames(requestKind), name, [mismatch]);
}

/**
 * POST to `{name}/token` (upstream's TokenREST): the object named (a ServiceAccount) must exist; the TokenRequest
 * gets its name, namespace and uid, the server's audiences when it names none, its defaults and checks; an object
 * the token is bound to must exist (with the uid given); the answer (201) is the request with the signed token.
 * Nothing is stored.
 */
@Injectable()
export class TokenHandler implements VerbHandler {
  readonly routes = [{ verb: 'create' as const, subresource: 'token' }];

  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    private readonly tokens: ServiceAccountTokens,
  ) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const binding = subresourceBinding(request, 'token');
    const { requestKind } = binding;
    readWriteOptions(request, 'CreateOptions');
    const name = checkPathName(request);
    const namespace = request.path.namespace as string;
    const tokenRequest = readObject(request, requestKind) as TokenRequest;
    const meta = tokenRequest.metadata;
    checkAgainstPath(requestKind, meta, name, namespace);
    const account = await this.registry.get(request.def, namespace, name);
    const uid = account.metadata.uid as string;
    if (meta.uid && meta.uid !== uid) {
      throw apiErrors.conflict(requestNames(requestKind), name, `the UID in the token request (${meta.uid}) does not match the UID of the service account (${uid})`);
    }
    const now = Date.now();
    tokenRequest.metadata = { ...meta, name, namespace, uid, creationTimestamp: formatTimestamp(now) };
    const spec = (tokenRequest.spec ??= {});
    if (!spec.audiences?.length) spec.audiences = [...this.tokens.settings.audiences];
    delete tokenRequest.status;
    requestKind.strategy.applyDefaults(tokenRequest);
    const errors = requestKind.strategy.validate(tokenRequest);
    if (errors.length > 0) throw apiErrors.invalid(requestNames(requestKind), '', errors);
    const bound = await this.boundObject(binding, namespace, tokenRequest);
    const seconds = tokenRequest.spec.expirationSeconds as number;
    const claim = { namespace, serviceaccount: { name, uid }, ...bound };
    const { token } = await this.tokens.issue(claim, tokenRequest.spec.audiences as string[], seconds, now);
    const body = {
      ...tokenRequest,
      spec: { ...tokenRequest.spec, boundObjectRef: tokenRequest.spec.boundObjectRef ?? null },
      status: { token, expirationTimestamp: formatTimestamp(now + seconds * 1000) },
    };
    return { code: 201, body };
  }

  /** The object the request binds the token to, as the token's claim names it (`secret`), checked to exist. */
  private async boundObject(binding: TokenBinding, namespace: string, request: TokenRequest): Promise<Record<string, { name: string; uid: string }>> {
    const ref = request.spec?.boundObjectRef;
    if (!ref) return {};
    const [group, version] = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion as string).split('/') : ['', ref.apiVersion ?? ''];
    const key = group === '' ? binding.boundKinds[ref.kind ?? ''] : undefined;
    const def = key && this.kinds.find(key.group, key.version, key.resource);
    if (!def) throw apiErrors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
    const object: KubeObject = await this.registry.get(def, namespace, ref.name ?? '');
    const uid = object.metadata.uid as string;
    if (ref.uid && ref.uid !== uid) {
      throw apiErrors.conflict(
        { group, resource: ref.kind as string, kind: ref.kind as string },
        ref.name ?? '',
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return { [(ref.kind as string).toLowerCase()]: { name: object.metadata.name as string, uid } };
  }
}
