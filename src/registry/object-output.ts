import { groupVersion, KindDefinition, wireOf } from './kind-definition';
import { jsonMembers } from './json-members';
import { KubeObject, OBJECT_META_ORDER, ObjectMeta } from '../apimachinery/meta/kube-object';

type KindPath = Pick<KindDefinition, 'group' | 'version' | 'resource' | 'namespaced'>;

const escape = (segment: string) => encodeURIComponent(segment);

export function apiRoot(def: Pick<KindDefinition, 'group' | 'version'>): string {
  return def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
}

export function selfLink(def: KindPath, namespace: string | undefined, name: string, subresource?: string): string {
  const scope = def.namespaced && namespace ? `/namespaces/${escape(namespace)}` : '';
  const sub = subresource ? `/${subresource}` : '';
  return `${apiRoot(def)}${scope}/${def.resource}/${escape(name)}${sub}`;
}

/** metadata with its keys in the apiserver's order; absent and undefined keys stay absent. */
export function orderedMeta(meta: ObjectMeta): ObjectMeta {
  const ordered: Record<string, unknown> = {};
  for (const key of OBJECT_META_ORDER) if (meta[key] !== undefined) ordered[key] = meta[key];
  for (const [key, value] of Object.entries(meta)) if (!(key in ordered) && value !== undefined) ordered[key] = value;
  return ordered as ObjectMeta;
}

export interface OutputOptions {
  /** items of a list carry no kind or apiVersion */
  withTypeMeta: boolean;
  /** the namespace and name of the request, used for the selfLink when the object has none (an export clears them) */
  request?: { namespace?: string; name?: string };
  subresource?: string;
  /** the kind written in the type meta when it is not the path's kind (a Scale under `deployments/{name}/scale`) */
  typeMeta?: Pick<KindDefinition, 'group' | 'version' | 'kind'>;
}

/** The object as a response carries it: type meta first, ordered metadata with its selfLink, then the rest. */
export function toOutput(def: KindDefinition, object: KubeObject, options: OutputOptions): KubeObject {
  // the object itself is converted to the row's version; a subresource's view (a Scale) is not
  const ownKind = options.typeMeta === undefined || options.typeMeta === def;
  const served = def.conversion && ownKind ? def.conversion.fromStored(object) : object;
  const { kind: _kind, apiVersion: _apiVersion, metadata, ...rest } = served;
  const meta: ObjectMeta = { ...metadata };
  const name = meta.name || options.request?.name || '';
  meta.selfLink = selfLink(def, meta.namespace || options.request?.namespace, name, options.subresource);
  const out: Record<string, unknown> = {};
  if (options.withTypeMeta) {
    const type = options.typeMeta ?? def;
    out.kind = type.kind;
    out.apiVersion = groupVersion(type);
  }
  out.metadata = orderedMeta(meta);
  Object.assign(out, rest);
  return out as KubeObject;
}

/** What a list page's metadata carries besides its selfLink and resourceVersion. */
export interface ListPageMeta {
  continue?: string;
}

export function toListOutput(def: KindDefinition, items: KubeObject[], resourceVersion: string, path: string, page: ListPageMeta = {}) {
  const withTypeMeta = wireOf(def).itemTypeMeta;
  return listEnvelope(def, resourceVersion, path, page, items.map((item) => toOutput(def, item, { withTypeMeta })));
}

/** A list's members in the order the kind's wire form writes them. */
function listEnvelope(def: KindDefinition, resourceVersion: string, path: string, page: ListPageMeta, items: unknown): Record<string, unknown> {
  const members: Record<string, unknown> = {
    kind: def.listKind,
    apiVersion: groupVersion(def),
    metadata: { selfLink: path, resourceVersion, ...page },
    items,
  };
  return Object.fromEntries(wireOf(def).listMembers.map((member) => [member, members[member]]));
}

/**
 * An item of a list as JSON text, from its body as stored (JSON text) and its resourceVersion: what toOutput makes
 * of it, with the values copied as text rather than parsed and serialized again (only the name and namespace are
 * parsed, for the selfLink).
 */
function listItemJson(def: KindDefinition, body: string, resourceVersion: string, typeMeta: string): string {
  let metadata = '{}';
  const rest: string[] = [];
  for (const { key, value } of jsonMembers(body)) {
    if (key === 'metadata') metadata = value;
    else if (key !== 'kind' && key !== 'apiVersion') rest.push(`,"${key}":${value}`);
  }
  const meta: Record<string, string> = {};
  for (const { key, value } of jsonMembers(metadata)) meta[key] = value;
  const text = (json: string | undefined) => (json === undefined ? undefined : (JSON.parse(json) as string));
  meta.selfLink = JSON.stringify(selfLink(def, text(meta.namespace), text(meta.name) ?? ''));
  meta.resourceVersion = JSON.stringify(resourceVersion);
  const ordered = Object.entries(orderedMeta(meta as ObjectMeta)).map(([key, value]) => `"${key}":${value}`);
  return `{${typeMeta}"metadata":{${ordered.join(',')}}${rest.join('')}}`;
}

/** An item of a list of a converted version: the stored body parsed, converted and written again. */
function convertedItemJson(def: KindDefinition, body: string, resourceVersion: string): string {
  const object = JSON.parse(body) as KubeObject;
  object.metadata.resourceVersion = resourceVersion;
  return JSON.stringify(toOutput(def, object, { withTypeMeta: wireOf(def).itemTypeMeta }));
}

/**
 * A list as JSON text from bodies read as text (ObjectStore.listForOutput): the list toListOutput describes, built
 * without parsing every body only to serialize it again.
 */
export function listOutputJson(
  def: KindDefinition,
  items: { resourceVersion: string; body: string }[],
  resourceVersion: string,
  path: string,
  page: ListPageMeta = {},
): string {
  const marker = '\u0000items';
  const envelope = JSON.stringify(listEnvelope(def, resourceVersion, path, page, marker));
  const typeMeta = wireOf(def).itemTypeMeta ? `"kind":${JSON.stringify(def.kind)},"apiVersion":${JSON.stringify(groupVersion(def))},` : '';
  const texts = items.map((item) => (def.conversion ? convertedItemJson(def, item.body, item.resourceVersion) : listItemJson(def, item.body, item.resourceVersion, typeMeta)));
  return envelope.replace(JSON.stringify(marker), () => `[${texts.join(',')}]`);
}
