import { decodeDocument } from '../codec/body-decoder';
import { apiErrors } from '../errors/status-error';
import { decodeObject, DecodeTarget } from '../meta/decode-object';
import { KubeObject } from '../meta/kube-object';
import { nameErrors } from '../meta/object-meta-validation';
import { parseResourceVersion } from '../request/query';
import { ApiRequest } from './api-request';

/** The request body decoded as an object of the endpoint's kind, or of the given kind (a subresource's). */
export function readObject(request: ApiRequest, target: DecodeTarget = request.def): KubeObject {
  return decodeObject(target, decodeDocument(request.body, request.contentType, target.kind));
}

/**
 * The body of a PUT: the whole new object (of the endpoint's kind, or a Scale), named as the URL names it, in the
 * URL's namespace; its resourceVersion, when set, is a precondition (reference §4.2).
 */
export function readReplacement(request: ApiRequest, target: DecodeTarget = request.def): KubeObject {
  const name = checkPathName(request);
  const body = readObject(request, target);
  const meta = body.metadata;
  if (!meta.name) {
    throw apiErrors.badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
  if (meta.name !== name) {
    throw apiErrors.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
  }
  settleNamespace(request, body, false);
  if (meta.resourceVersion) meta.resourceVersion = parseResourceVersion(meta.resourceVersion);
  return body;
}

/**
 * Reconciles the namespace of a body with the namespace of the path (reference §2.5): taken from the path when
 * absent, a 400 when different, cleared for cluster-scoped kinds.
 */
export function settleNamespace(request: ApiRequest, object: KubeObject, onCreate: boolean): void {
  const meta = object.metadata;
  if (!request.def.namespaced) {
    delete meta.namespace;
    return;
  }
  const pathNamespace = request.path.namespace as string;
  if (!meta.namespace) {
    meta.namespace = pathNamespace;
  } else if (meta.namespace !== pathNamespace) {
    throw apiErrors.badRequest(
      onCreate
        ? 'the namespace of the provided object does not match the namespace sent on the request'
        : `the namespace of the object (${meta.namespace}) does not match the namespace on the request (${pathNamespace})`,
    );
  }
}

/** A name taken from the URL must be usable as a path segment (400 otherwise). */
export function checkPathName(request: ApiRequest): string {
  const name = request.path.name as string;
  const messages = nameErrors(request.def, name, false).filter((m) => m.startsWith('may not'));
  if (messages.length > 0) throw apiErrors.badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${messages.join(';')}`);
  return name;
}
