import { groupVersion, KindDefinition, wireOf } from './kind-definition';
import { OutputItem } from '../storage/objects/read-form';
import { compactJsonbText } from './compact-jsonb-text';
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

/** metadata with its keys in the apiserver's order, and `selfLink` when given; absent and undefined keys stay absent. */
export function orderedMeta(meta: ObjectMeta, selfLink?: string): ObjectMeta {
  const ordered: Record<string, unknown> = {};
  for (const key of OBJECT_META_ORDER) {
    const value = key === 'selfLink' && selfLink !== undefined ? selfLink : meta[key];
    if (value !== undefined) ordered[key] = value;
  }
  const members = meta as Record<string, unknown>;
  for (const key in members) if (!(key in ordered) && members[key] !== undefined) ordered[key] = members[key];
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
  const meta = served.metadata ?? {};
  const name = meta.name || options.request?.name || '';
  const out: Record<string, unknown> = {};
  if (options.withTypeMeta) {
    const type = options.typeMeta ?? def;
    out.kind = type.kind;
    out.apiVersion = groupVersion(type);
  }
  out.metadata = orderedMeta(meta, selfLink(def, meta.namespace || options.request?.namespace, name, options.subresource));
  for (const key in served) if (key !== 'kind' && key !== 'apiVersion' && key !== 'metadata') out[key] = served[key];
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

/** How objectJson writes an object. */
export interface JsonOutputOptions {
  withTypeMeta: boolean;
  subresource?: string;
  /** whether the members read as jsonb text are written compactly, as JSON.stringify writes them */
  compact?: boolean;
}

/** Stands for the managed fields in the metadata until their text replaces it (a NUL, which no stored string holds). */
const MANAGED_FIELDS_MARKER = '\u0000managedFields';

/**
 * An object as JSON text (what toOutput makes of it), from the parts of its stored body read as text: only the
 * metadata is parsed, to add the selfLink and resourceVersion in the apiserver's order; the other members are copied
 * as they are.
 */
export function objectJson(def: KindDefinition, item: OutputItem, options: JsonOutputOptions): string {
  if (item.written === undefined) return writeObjectJson(def, item, options);
  // an item kept to be read again (OutputCache) keeps what was written of it, by kind definition and options
  const form = `${options.withTypeMeta ? 'typed' : 'bare'}${options.compact ? ' compact' : ''}${options.subresource ? ` ${options.subresource}` : ''}`;
  let text = item.written.get(def, form);
  if (text === undefined) item.written.set(def, form, (text = writeObjectJson(def, item, options)));
  return text;
}

function writeObjectJson(def: KindDefinition, item: OutputItem, options: JsonOutputOptions): string {
  if (def.conversion && !def.conversion.keepsStoredText?.(item)) return convertedObjectJson(def, item, options);
  const copied = (text: string) => (options.compact ? compactJsonbText(text) : text);
  const meta = JSON.parse(item.metadata) as ObjectMeta;
  meta.resourceVersion = item.resourceVersion;
  const { managedFields } = item;
  if (managedFields !== undefined) meta.managedFields = MANAGED_FIELDS_MARKER as never;
  const typeMeta = options.withTypeMeta ? `"kind":${JSON.stringify(def.kind)},"apiVersion":${JSON.stringify(groupVersion(def))},` : '';
  let metadata = JSON.stringify(orderedMeta(meta, selfLink(def, meta.namespace, meta.name ?? '', options.subresource)));
  // the managed fields' text goes where they stand in the order, unparsed
  if (managedFields !== undefined) metadata = metadata.replace(JSON.stringify(MANAGED_FIELDS_MARKER), () => copied(managedFields));
  const rest = copied(item.rest);
  return rest === '{}' ? `{${typeMeta}"metadata":${metadata}}` : `{${typeMeta}"metadata":${metadata},${rest.slice(1)}`;
}

/** An item of a list as JSON text, with its kind and apiVersion where the kind's list items carry them. */
export function listItemJson(def: KindDefinition, item: OutputItem): string {
  return objectJson(def, item, { withTypeMeta: wireOf(def).itemTypeMeta });
}

/**
 * The object objectJson writes, parsed from the parts of its stored body: for an answer that carries objects rather
 * than their text (a watch event, a Table's row), and for a converted version, which is converted as an object.
 */
export function outputObject(def: KindDefinition, item: OutputItem, options: OutputOptions): KubeObject {
  const object = JSON.parse(item.rest) as KubeObject;
  object.metadata = JSON.parse(item.metadata) as ObjectMeta;
  object.metadata.resourceVersion = item.resourceVersion;
  if (item.managedFields !== undefined) object.metadata.managedFields = JSON.parse(item.managedFields);
  return toOutput(def, object, options);
}

/** An object of a converted version: the stored body parsed, converted and written again. */
function convertedObjectJson(def: KindDefinition, item: OutputItem, options: JsonOutputOptions): string {
  return JSON.stringify(outputObject(def, item, options));
}

/**
 * A list as JSON text from bodies read as text (ObjectStore.list in its output form): the list toListOutput
 * describes, built without parsing every body only to serialize it again.
 */
export function listOutputJson(def: KindDefinition, items: OutputItem[], resourceVersion: string, path: string, page: ListPageMeta = {}): string {
  const marker = '\u0000items';
  const envelope = JSON.stringify(listEnvelope(def, resourceVersion, path, page, marker));
  const texts = items.map((item) => listItemJson(def, item));
  return envelope.replace(JSON.stringify(marker), () => `[${texts.join(',')}]`);
}
