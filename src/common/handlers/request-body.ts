import { decodeDocument } from '../codec/body-decoder';
import { apiErrors } from '../errors/status-error';
import { decodeObject } from '../meta/decode-object';
import { KubeObject } from '../meta/kube-object';
import { nameErrors } from '../meta/object-meta-validation';
import { ApiRequest } from './api-request';

/** The request body decoded as an object of the endpoint's kind. */
export function readObject(request: ApiRequest): KubeObject {
  return decodeObject(request.def, decodeDocument(request.body, request.contentType, request.def.kind));
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
