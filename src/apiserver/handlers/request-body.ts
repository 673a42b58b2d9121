import { decodeDocument } from '../codec/body-decoder';
import { APPLY_PATCH_TYPE, bareType } from '../codec/media-types';
import { isPlainObject } from '../../apimachinery/meta/kube-object';
import { unstorableReason } from '../../apimachinery/meta/storable';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { DecodeTarget } from '../../registry/decode-object';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { toOutput } from '../../registry/object-output';
import { applyPatch, decodePatch, Patch } from './apply-patch';
import { typeFacts } from '../../apimachinery/patch/strategic-merge-schema';
import { groupVersion, wireOf } from '../../registry/kind-definition';
import { parseResourceVersion } from '../../apimachinery/parameters/query';
import { pathSegmentName } from '../../apimachinery/validation/names';
import { ApiRequest } from './api-request';
import { decodeValidated } from './field-validation';
import { loadYamlDocument } from '../codec/yaml-document';

/** The request body decoded as an object of the endpoint's kind, or of the given kind (a subresource's). */
export function readObject(request: ApiRequest, target: DecodeTarget = request.def): KubeObject {
  const document = decodeDocument(request.body, request.contentType, target.kind, groupVersion(target), wireOf(request.def).mediaTypes);
  const { object, warnings } = decodeValidated(request, target, document, true);
  request.warnings.push(...warnings);
  request.observeObject?.(object);
  return asStored(request, target, object);
}

/**
 * The body of a PUT: the whole new object, of the endpoint's kind or of the given kind (a Scale), checked against
 * the path as `checkReplacement` says.
 */
export function readReplacement(request: ApiRequest, target: DecodeTarget = request.def): KubeObject {
  checkPathName(request);
  const body = readObject(request, target);
  checkReplacement(request, body);
  return body;
}

/** The request body read as a patch of an object of the endpoint's kind, or of the given kind (a Scale). */
export function readPatch(request: ApiRequest, target: DecodeTarget = request.def): Patch {
  const strategicMerge = wireOf(request.def).strategicMerge;
  return decodePatch(request.contentType, request.body, strategicMerge ? typeFacts(target.strategy.shape) : undefined);
}

/** Whether a PATCH is a server-side apply. */
export const isApply = (request: ApiRequest): boolean => bareType(request.contentType) === APPLY_PATCH_TYPE;

/**
 * The configuration of a server-side apply: YAML (or JSON) of an object of the path's kind, which must name its
 * apiVersion and kind and carry no managedFields, decoded and checked against the path like a PUT's body.
 */
export function readApplyConfiguration(request: ApiRequest, target: DecodeTarget = request.def): KubeObject {
  let document: unknown;
  try {
    document = loadYamlDocument((request.body ?? Buffer.alloc(0)).toString('utf8'));
  } catch (error) {
    throw apiErrors.badRequest(`error decoding YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const unstorable = unstorableReason(document);
  if (unstorable) throw apiErrors.badRequest(`error decoding YAML: ${unstorable}`);
  if (!isPlainObject(document)) throw apiErrors.badRequest('error decoding YAML: the configuration is not an object');
  const apiVersion = typeof document.apiVersion === 'string' ? document.apiVersion : '';
  const kind = typeof document.kind === 'string' ? document.kind : '';
  if (apiVersion !== groupVersion(target) || kind !== target.kind) {
    const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
    throw apiErrors.badRequest(`invalid object type: ${gv}, Kind=${kind}`);
  }
  const metadata = document.metadata;
  if (isPlainObject(metadata) && metadata.managedFields !== undefined && metadata.managedFields !== null) {
    throw apiErrors.badRequest('metadata.managedFields must be nil');
  }
  const { object, warnings } = decodeValidated(request, target, document);
  request.warnings.push(...warnings);
  checkReplacement(request, object);
  return object;
}

/**
 * `current` with the patch applied to its JSON form, as the body of a PUT would carry it: decoded as
 * the kind (the endpoint's, or the given one: a Scale), then checked like a PUT body.
 */
export function patchedObject(request: ApiRequest, patch: Patch, current: KubeObject, target: DecodeTarget = request.def): KubeObject {
  const document = toOutput(request.def, current, { withTypeMeta: true, typeMeta: target });
  const { object, warnings } = decodeValidated(request, target, applyPatch(patch, document));
  request.warnings.splice(0, request.warnings.length, ...warnings); // a patch applied again warns once
  const stored = asStored(request, target, object);
  checkReplacement(request, stored);
  return stored;
}

/** An object of the endpoint's version in the form it is stored in (the same, unless the row converts). */
function asStored(request: ApiRequest, target: DecodeTarget, object: KubeObject): KubeObject {
  const { conversion } = request.def;
  return conversion && target === request.def ? conversion.toStored(object) : object;
}

/**
 * Checks the object a PUT or PATCH would store against the path: the same name (400 otherwise), a namespace that
 * matches or is filled in, and a resourceVersion, if any, that is a number.
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
 * Reconciles the namespace of a body with the namespace of the path: taken from the path when
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

/** A name taken from the URL must be usable as a path segment (400 otherwise); the kind's own rule is for bodies. */
export function checkPathName(request: ApiRequest): string {
  const name = request.path.name as string;
  const messages = pathSegmentName(name, false);
  if (messages.length > 0) throw apiErrors.badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${messages.join(';')}`);
  return name;
}
