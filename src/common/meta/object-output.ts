import { groupVersion, KindDefinition } from '../registry/kind-definition';
import { KubeObject, OBJECT_META_ORDER, ObjectMeta } from './kube-object';

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
  /** the namespace of the request, used for the selfLink when the object has none */
  requestNamespace?: string;
  subresource?: string;
  /** the kind written in the type meta when it is not the path's kind (a Scale under `deployments/{name}/scale`) */
  typeMeta?: Pick<KindDefinition, 'group' | 'version' | 'kind'>;
}

/** The object as a response carries it: type meta first, ordered metadata with its selfLink, then the rest. */
export function toOutput(def: KindDefinition, object: KubeObject, options: OutputOptions): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, metadata, ...rest } = object;
  const meta: ObjectMeta = { ...metadata };
  const name = meta.name ?? '';
  meta.selfLink = selfLink(def, meta.namespace || options.requestNamespace, name, options.subresource);
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

export function toListOutput(def: KindDefinition, items: KubeObject[], resourceVersion: string, path: string) {
  return {
    kind: def.listKind,
    apiVersion: groupVersion(def),
    metadata: { selfLink: path, resourceVersion },
    items: items.map((item) => toOutput(def, item, { withTypeMeta: false })),
  };
}
