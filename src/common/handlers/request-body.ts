import { decodeDocument } from '../codec/body-decoder';
import { apiErrors } from '../errors/status-error';
import { decodeObject } from '../meta/decode-object';
import { KubeObject } from '../meta/kube-object';
import { nameErrors } from '../meta/object-meta-validation';
import { toOutput } from '../meta/object-output';
import { applyPatch, decodePatch, Patch } from '../patch/apply-patch';
import { strategicMergeSchema } from '../patch/strategic-merge-schema';
import { parseResourceVersion } from '../request/query';
import { ApiRequest } from './api-request';

/** The request body decoded as an object of the endpoint's kind. */
export function readObject(request: ApiRequest): KubeObject {
  return decodeObject(request.def, decodeDocument(request.body, request.contentType, request.def.kind));
}

/** The request body read as a patch of an object of the endpoint's kind. */
export function readPatch(request: ApiRequest): Patch {
  const { def } = request;
  return decodePatch(request.contentType, request.body, strategicMergeSchema(def.group, def.version, def.kind));
}

/**
 * `current` with the patch applied to its JSON form, as the body of a PUT would carry it (reference §8.1): decoded as
 * the kind, then checked like a PUT body.
 */
export function patchedObject(request: ApiRequest, patch: Patch, current: KubeObject): KubeObject {
  const { def } = request;
  const object = decodeObject(def, applyPatch(patch, toOutput(def, current, { withTypeMeta: true })));
  checkReplacement(request, object);
  return object;
}

/**
 * Checks the object a PUT or PATCH would store against the path: the same name (400 otherwise), a namespace that
 * matches or is filled in (§2.5), and a resourceVersion, if any, that is a number.
 */
export function checkReplacement(request: ApiRequest, object: KubeObject): void {
  const name = request.path.name as string;
  const meta = object.metadata;
  if (!meta.name) {
    throw apiErrors.badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
  if (meta.name !== name) {
    throw apiErrors.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
  }
  settleNamespace(request, object, false);
  if (meta.resourceVersion) meta.resourceVersion = parseResourceVersion(meta.resourceVersion);
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
