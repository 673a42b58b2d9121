/** The JSON shape every stored kind shares. Everything beyond metadata is kind-specific and kept as plain JSON. */
export interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string> | null;
  annotations?: Record<string, string> | null;
  ownerReferences?: OwnerReference[] | null;
  initializers?: { pending?: { name?: string }[] | null; result?: unknown } | null;
  finalizers?: string[] | null;
  clusterName?: string;
}

export interface KubeObject {
  kind?: string;
  apiVersion?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** ObjectMeta keys in the apiserver's (Go struct) order, used to write metadata in a familiar order. */
export const OBJECT_META_ORDER: readonly (keyof ObjectMeta)[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'initializers',
  'finalizers',
  'clusterName',
];

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Time as the apiserver writes it: RFC 3339, UTC, whole seconds. */
export const nowTimestamp = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
