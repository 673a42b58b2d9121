/**
 * What strategic merge patch needs to know of a compiled type: the fields whose lists are merged rather than
 * replaced (`x-kubernetes-patch-strategy: merge`, with the `x-kubernetes-patch-merge-key` of lists of objects), and
 * the way down to them. These facts come from the 1.7 OpenAPI documents (test/strategic-merge-schema.test.ts checks
 * them); a field not named here has no strategy: its objects are merged key by key and its lists are replaced.
 */
export interface FieldFacts {
  /** 'merge' for lists merged item by item */
  strategy?: 'merge';
  /** the field that identifies an item of a merged list of objects; absent for lists of primitives */
  mergeKey?: string;
  /** the fields of the field's value, or of each item of its list */
  fields?: TypeFacts;
}

export type TypeFacts = Readonly<Record<string, FieldFacts>>;

const mergedList = (mergeKey?: string, fields?: TypeFacts): FieldFacts => ({ strategy: 'merge', mergeKey, fields });
const object = (fields: TypeFacts): FieldFacts => ({ fields });

const OBJECT_META: TypeFacts = { finalizers: mergedList(), ownerReferences: mergedList('uid') };

const CONTAINER: TypeFacts = {
  env: mergedList('name'),
  ports: mergedList('containerPort'),
  volumeMounts: mergedList('mountPath'),
};

const POD_SPEC: TypeFacts = {
  containers: mergedList('name', CONTAINER),
  initContainers: mergedList('name', CONTAINER),
  volumes: mergedList('name'),
  imagePullSecrets: mergedList('name'),
  hostAliases: mergedList('ip'),
};

/** A kind with only ObjectMeta to merge by strategy. */
const PLAIN: TypeFacts = { metadata: object(OBJECT_META) };

/** A kind whose spec carries a pod template, and whose status may have conditions merged by type. */
const workload = (status?: TypeFacts): TypeFacts => ({
  ...PLAIN,
  spec: object({ template: object({ metadata: object(OBJECT_META), spec: object(POD_SPEC) }) }),
  ...(status ? { status: object(status) } : {}),
});

const CONDITIONS: TypeFacts = { conditions: mergedList('type') };

/** The compiled types this server knows, by `<group>/<version>/<Kind>`. */
const COMPILED_TYPES: Readonly<Record<string, TypeFacts>> = {
  '/v1/ReplicationController': workload(CONDITIONS),
  'autoscaling/v1/Scale': PLAIN,
  'extensions/v1beta1/DaemonSet': workload(),
  'extensions/v1beta1/Deployment': workload(CONDITIONS),
  'extensions/v1beta1/Ingress': PLAIN,
  'extensions/v1beta1/NetworkPolicy': PLAIN,
  'extensions/v1beta1/PodSecurityPolicy': PLAIN,
  'extensions/v1beta1/ReplicaSet': workload(CONDITIONS),
  'extensions/v1beta1/Scale': PLAIN,
  'extensions/v1beta1/ThirdPartyResource': PLAIN,
  'federation/v1beta1/Cluster': {
    ...PLAIN,
    spec: object({ serverAddressByClientCIDRs: mergedList('clientCIDR') }),
  },
};

/**
 * The strategic merge facts of a kind; undefined for a kind without a compiled type (such as ThirdPartyResource
 * data), which strategic merge patch cannot be applied to.
 */
export function strategicMergeSchema(group: string, version: string, kind: string): TypeFacts | undefined {
  return COMPILED_TYPES[`${group}/${version}/${kind}`];
}
