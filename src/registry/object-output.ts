import { groupVersion, KindDefinition, wireOf } from './kind-definition';
import { OutputItem } from './store/list-cursor';
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

/** Stands for the managed fields in the metadata until their text replaces it (a NUL, which no stored string holds). */
const MANAGED_FIELDS_MARKER = '\u0000managedFields';

/**
 * An item of a list as JSON text (what toOutput makes of it), from the parts of its stored body read as text: only
 * the metadata is parsed, to add the selfLink and resourceVersion in the apiserver's order; the other members are
 * copied as they are. With its kind and apiVersion where the kind's list items carry them, or when asked (the object
 * of a watch event).
 */
export function listItemJson(def: KindDefinition, item: OutputItem, withTypeMeta = wireOf(def).itemTypeMeta): string {
  if (def.conversion) return convertedItemJson(def, item, withTypeMeta);
  const meta = JSON.parse(item.metadata) as ObjectMeta;
  meta.selfLink = selfLink(def, meta.namespace, meta.name ?? '');
  meta.resourceVersion = item.resourceVersion;
  const { managedFields } = item;
  if (managedFields !== undefined) meta.managedFields = MANAGED_FIELDS_MARKER as never;
  const typeMeta = withTypeMeta ? `"kind":${JSON.stringify(def.kind)},"apiVersion":${JSON.stringify(groupVersion(def))},` : '';
  let metadata = JSON.stringify(orderedMeta(meta));
  // the managed fields' text goes where they stand in the order, unparsed
  if (managedFields !== undefined) metadata = metadata.replace(JSON.stringify(MANAGED_FIELDS_MARKER), () => managedFields);
  return item.rest === '{}' ? `{${typeMeta}"metadata":${metadata}}` : `{${typeMeta}"metadata":${metadata},${item.rest.slice(1)}`;
}

/** An item of a list of a converted version: the stored body parsed, converted and written again. */
function convertedItemJson(def: KindDefinition, item: OutputItem, withTypeMeta: boolean): string {
  const metadata = { ...JSON.parse(item.metadata), resourceVersion: item.resourceVersion } as ObjectMeta;
  if (item.managedFields !== undefined) metadata.managedFields = JSON.parse(item.managedFields);
  const object = { ...JSON.parse(item.rest), metadata } as KubeObject;
  return JSON.stringify(toOutput(def, object, { withTypeMeta }));
}

/**
 * A list as JSON text from bodies read as text (ObjectStore.listForOutput): the list toListOutput describes, built
 * without parsing every body only to serialize it again.
 */
export function listOutputJson(def: KindDefinition, items: OutputItem[], resourceVersion: string, path: string, page: ListPageMeta = {}): string {
  const marker = '\u0000items';
  const envelope = JSON.stringify(listEnvelope(def, resourceVersion, path, page, marker));
  const texts = items.map((item) => listItemJson(def, item));
  return envelope.replace(JSON.stringify(marker), () => `[${texts.join(',')}]`);
}
