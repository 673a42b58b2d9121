import { listOf } from '../../apimachinery/meta/object-meta-schema';
import { StructSchema } from '../../apimachinery/schema/schema';
import { KindDefinition, SubresourceDefinition, Verb, wireOf } from '../../registry/kind-definition';
import { apiRoot } from '../../registry/object-output';

/** A query parameter an operation takes. */
export interface QueryParameter {
  name: string;
  type: 'string' | 'integer' | 'boolean';
  description: string;
}

/** One operation of a path, before it is written as v2 or v3. */
export interface Operation {
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  /** `x-kubernetes-action` */
  action: string;
  operationId: string;
  gvk: { group: string; version: string; kind: string };
  query: QueryParameter[];
  /** the type of the request body; a patch body is any object */
  body?: StructSchema | 'patch';
  /** the media types of the request body (`*\/*` when unset) and of the answer: the kind's wire form's */
  consumes?: readonly string[];
  produces: readonly string[];
  /** the type of the answer; none for a Status */
  response?: StructSchema;
}

export interface PathOperations {
  path: string;
  /** the path's parameters, in order: namespace, name */
  pathParameters: string[];
  operations: Operation[];
}

const query = (name: string, type: QueryParameter['type'], description: string): QueryParameter => ({ name, type, description });

const DRY_RUN = query('dryRun', 'string', 'When present, the change is checked but not persisted. The only valid value is All.');
const FIELD_VALIDATION = query(
  'fieldValidation',
  'string',
  'What to do with unknown and duplicate fields in the body: Ignore (drop them), Warn (drop them with a warning) or Strict (fail).',
);
const FIELD_MANAGER = query('fieldManager', 'string', 'The name of the actor making the change.');
const PRETTY = query('pretty', 'string', 'When true, the output is indented.');
const LIST = [
  query('labelSelector', 'string', 'Only objects whose labels match.'),
  query('fieldSelector', 'string', 'Only objects whose fields match.'),
  query('resourceVersion', 'string', 'The resourceVersion to list or watch from.'),
  query('resourceVersionMatch', 'string', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  query('limit', 'integer', 'At most this many objects in one response; the rest follow with the continue token.'),
  query('continue', 'string', 'The token of the previous page, to read the next one at the same resourceVersion.'),
  query('timeoutSeconds', 'integer', 'How long the call may last.'),
  query('watch', 'boolean', 'Stream the changes instead of listing.'),
  query('allowWatchBookmarks', 'boolean', 'A watch may send BOOKMARK events carrying only a resourceVersion.'),
  query('sendInitialEvents', 'boolean', 'A watch starts with the current state as ADDED events, then a bookmark (with resourceVersionMatch=NotOlderThan).'),
];
const WRITE = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `ExtensionsV1beta1` of extensions/v1beta1, `CoreV1` of core v1, as the apiserver names operations. */
function groupVersionId(def: KindDefinition): string {
  const group = def.group === '' ? 'core' : def.group.split('.')[0];
  return `${capitalized(group)}${capitalized(def.version)}`;
}

const JSON_AND_MERGE_PATCH = ['application/json-patch+json', 'application/merge-patch+json'];

function operationFactory(def: KindDefinition, suffix: string) {
  const scope = def.namespaced ? 'Namespaced' : '';
  const id = (action: string, kind = def.kind) => `${action}${groupVersionId(def)}${scope}${kind}${suffix}`;
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const wire = wireOf(def);
  const media = { produces: wire.mediaTypes };
  const patchTypes = [...JSON_AND_MERGE_PATCH, ...(wire.strategicMerge ? ['application/strategic-merge-patch+json'] : []), 'application/apply-patch+yaml'];
  return { id, gvk, media, patchTypes };
}

function collectionOperations(def: KindDefinition): Operation[] {
  const { id, gvk, media } = operationFactory(def, '');
  const shape = def.strategy.shape;
  const list = listOf(shape);
  const offered: Partial<Record<Verb, Operation>> = {
    list: { method: 'get', action: 'list', operationId: id('list'), gvk, ...media, query: [PRETTY, ...LIST], response: list },
    create: { method: 'post', action: 'post', operationId: id('create'), gvk, ...media, query: [PRETTY, ...WRITE], body: shape, response: shape },
    deletecollection: { method: 'delete', action: 'deletecollection', operationId: id('deleteCollection'), gvk, ...media, query: [PRETTY, DRY_RUN, ...LIST] },
  };
  return def.verbs.flatMap((verb) => offered[verb] ?? []);
}

function objectOperations(def: KindDefinition, shape: StructSchema, verbs: readonly Verb[], suffix: string): Operation[] {
  const { id, gvk, media, patchTypes } = operationFactory(def, suffix);
  const offered: Partial<Record<Verb, Operation>> = {
    get: { method: 'get', action: 'get', operationId: id('read'), gvk, ...media, query: [PRETTY], response: shape },
    update: { method: 'put', action: 'put', operationId: id('replace'), gvk, ...media, query: [PRETTY, ...WRITE], body: shape, response: shape },
    patch: { method: 'patch', action: 'patch', operationId: id('patch'), gvk, ...media, query: [PRETTY, ...WRITE], body: 'patch', consumes: patchTypes, response: shape },
    delete: { method: 'delete', action: 'delete', operationId: id('delete'), gvk, ...media, query: [PRETTY, DRY_RUN] },
    create: { method: 'post', action: 'post', operationId: id('create'), gvk, ...media, query: [PRETTY, DRY_RUN], body: shape },
  };
  return verbs.flatMap((verb) => offered[verb] ?? []);
}

/** The type a subresource reads and writes: the kind itself (status), a Scale, a DeploymentRollback. */
function subresourceShape(def: KindDefinition, subresource: SubresourceDefinition): StructSchema {
  if (subresource.scale) return subresource.scale.version.kind.strategy.shape;
  if (subresource.rollback) return subresource.rollback.requestKind.strategy.shape;
  if (subresource.token) return subresource.token.requestKind.strategy.shape;
  return def.strategy.shape;
}

/** The verbs of an object's own path (a create there is a subresource's, such as a rollback). */
const OBJECT_VERBS = new Set<Verb>(['get', 'update', 'patch', 'delete']);

/** The paths a kind serves, with their operations. */
export function kindPaths(def: KindDefinition): PathOperations[] {
  const collection = `${apiRoot(def)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.resource}`;
  const scope = def.namespaced ? ['namespace'] : [];
  const paths: PathOperations[] = [
    { path: collection, pathParameters: scope, operations: collectionOperations(def) },
    { path: `${collection}/{name}`, pathParameters: [...scope, 'name'], operations: objectOperations(def, def.strategy.shape, def.verbs.filter((verb) => OBJECT_VERBS.has(verb)), '') },
    ...def.subresources.map((subresource) => ({
      path: `${collection}/{name}/${subresource.name}`,
      pathParameters: [...scope, 'name'],
      operations: objectOperations(def, subresourceShape(def, subresource), subresource.verbs, capitalized(subresource.name)),
    })),
  ];
  return paths.filter((path) => path.operations.length > 0);
}
