import { FieldError } from '../apimachinery/errors/field-error';
import { LabelSelector } from '../apimachinery/selectors/label-selector-object';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { StructSchema } from '../apimachinery/schema/schema';
import { COMMON_FIELD_LABELS, FieldLabel } from '../apimachinery/selectors/field-labels';
import { NameRule } from '../apimachinery/validation/names';
import { TableColumn } from './table/table-column';
import { StorageKey } from '../storage/objects/object-key';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface SubresourceDefinition {
  /** the path segment after the object name: status, scale, rollback, token */
  name: string;
  /** the kind that the subresource reads and writes (discovery shows it) */
  kind: string;
  /** the group and version of `kind`, when they may differ from the resource's (a Scale is extensions' or autoscaling's) */
  kindGroupVersion?: { group: string; version: string };
  verbs: readonly Verb[];
  /** for `status`: the object read whole and written with the kind's status strategy */
  status?: true;
  /** for `scale`: how the Scale maps onto the stored objects */
  scale?: ScaleBinding;
  /** for `rollback`: the request's kind and what it does to the stored object */
  rollback?: RollbackBinding;
  /** for `token`: the request's kind (a ServiceAccount's TokenRequest) */
  token?: TokenBinding;
  /** for a subresource that writes one part of the object (a namespace's `finalize`): how that part is written */
  part?: PartStrategy;
}

/** How a write through a subresource changes one part of the stored object and keeps the rest. */
export interface PartStrategy {
  /** takes from the stored object what the subresource cannot change */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
}

/** Where a kind is stored and served: the registry key of a kind. */
export interface KindKey {
  group: string;
  version: string;
  resource: string;
}

/** One version of the Scale kind (extensions/v1beta1, autoscaling/v1). */
export interface ScaleVersion {
  /** the Scale kind; its group also names the errors of the subresource */
  kind: KindDefinition;
  /** the Scale's status for the scaled object's observed replicas and pod selector (as an object, or as text) */
  status(replicas: number, selector: LabelSelector | string | undefined): Record<string, unknown>;
}

/** Where an object keeps what its Scale shows, as field paths (a CRD's scale subresource declares them). */
export interface ReplicaPaths {
  spec: readonly string[];
  status: readonly string[];
  /** a label selector in its text form */
  selector?: readonly string[];
}

export interface ScaleBinding {
  version: ScaleVersion;
  /** the kind whose objects are scaled, when not the kind of the path (extensions' placeholder scales core RCs) */
  target?: KindKey;
  /** a failed write of the target becomes 409 Conflict on `<resource>/scale` (extensions' ReplicationController view) */
  writeErrorsAsConflict: boolean;
  /** where the replicas and selector are, when not `spec.replicas`, `status.replicas` and the strategy's pod selector */
  paths?: ReplicaPaths;
}

export interface RollbackBinding {
  /** the kind of the request body (DeploymentRollback) */
  requestKind: KindDefinition;
  /** the name of the object the request is for (a DeploymentRollback names it in its body) */
  targetName(request: KubeObject): string | undefined;
  validate(request: KubeObject): FieldError[];
  /** changes the stored object as the rollback asks, with no strategy and no generation change */
  apply(object: KubeObject, request: KubeObject): void;
}

export interface TokenBinding {
  /** the kind of the request and of the answer (TokenRequest), whose strategy defaults and validates the request */
  requestKind: KindDefinition;
  /** the kinds (of the core group) a token may be bound to, by kind name, when the server serves them */
  boundKinds: Readonly<Record<string, KindKey>>;
}

/**
 * How the server treats `metadata.generation` of a kind: `client` keeps what the client sent and never changes it;
 * `spec` sets 1 on create and adds 1 when the spec changes; `spec-and-annotations` also adds 1 on annotation changes;
 * `content` adds 1 when anything but the metadata changes (custom resources, whose status a main write keeps when
 * they have a status subresource).
 */
export type GenerationPolicy = 'client' | 'spec' | 'spec-and-annotations' | 'content';

/** How a kind's `status` is kept apart from the rest of the object. */
export interface StatusStrategy {
  /** the status of a new object: Go's zero value, with the fields Go always writes; none: no status until one is written */
  empty?: Readonly<Record<string, unknown>>;
  /** metadata that a `/status` write takes from the stored object, besides what every update keeps */
  keepsLabels: boolean;
  /** checks of a `/status` write (metadata is checked by the generic store) */
  validate(object: KubeObject, old: KubeObject): FieldError[];
}

/** What is particular to one kind: the counterpart of the apiserver's per-kind strategy.go. */
export interface KindStrategy {
  nameRule: NameRule;
  supportsGenerateName: boolean;
  /** the kind's Go type: its fields (others are dropped), their protobuf numbers and patch facts */
  shape: StructSchema;
  /** a `status` that the main resource cannot write (reset on create, kept on update), for kinds that have one */
  status?: StatusStrategy;
  generation: GenerationPolicy;
  /** true for kinds whose dependents are orphaned when a delete names no policy */
  orphanDependentsByDefault: boolean;
  /** true when DELETE answers with the deleted object instead of a Status (the federation Cluster) */
  deleteReturnsObject: boolean;
  /** true when a PUT of a missing object creates it (upstream's AllowCreateOnUpdate: Events, Leases) */
  createsOnUpdate?: boolean;
  /** finalizers the first DELETE of an object adds, for the server's own work before it goes (a CRD's cleanup) */
  deletionFinalizers?: readonly string[];
  /** the fields a fieldSelector may name */
  fieldLabels: Readonly<Record<string, FieldLabel>>;
  /** fills in the kind's defaults; runs on every decoded body */
  applyDefaults(object: KubeObject): void;
  /** for kinds whose schema prunes what it does not declare (custom resources): the paths it would prune, which
   * `fieldValidation` reports as unknown fields */
  prunedFields?(object: KubeObject): string[];
  /** kind-specific checks of a new object (metadata is checked by the generic store) */
  validate(object: KubeObject): FieldError[];
  /** kind-specific checks of an update */
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  /** kind-specific work on update besides status and generation (e.g. a DaemonSet's templateGeneration) */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  /** kind-specific work on create besides status and generation */
  prepareForCreate(object: KubeObject): void;
  /** kind-specific work once the name is known, on create (after generateName) and update (upstream's Canonicalize) */
  canonicalize?(object: KubeObject): void;
  /**
   * For kinds held from removal by more than metadata's finalizers (a namespace by its spec.finalizers): true while a
   * deleted object must stay. Such an object is marked for deletion as one with finalizers is.
   */
  holdsRemoval?(object: KubeObject): boolean;
  /** kind-specific changes to an object as a delete marks it for deletion (a namespace's Terminating phase) */
  prepareForDeletion?(object: KubeObject): void;
  /** for scalable kinds: the pods' selector, which a Scale shows */
  podSelector?(object: KubeObject): LabelSelector | undefined;
}

/** One served resource: a row of the kind registry. */
export interface KindDefinition {
  group: string;
  version: string;
  /** plural, the path segment */
  resource: string;
  kind: string;
  listKind: string;
  /** the singular name discovery shows (a CRD's); 1.7's kinds show none */
  singularName?: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  /** verbs of the resource itself; empty for a placeholder that only carries subresources */
  verbs: readonly Verb[];
  subresources: readonly SubresourceDefinition[];
  strategy: KindStrategy;
  /** the columns of its Table (`kubectl get`); none declared: the apiserver's default, NAME and AGE */
  columns?: readonly TableColumn[];
  /** how its objects travel, where not as the built-in kinds' do (objects of stored definitions) */
  wire?: WireForm;
  /** for a kind also served in another version that is the stored form: how the two map (its strategy works on the stored form) */
  conversion?: VersionConversion;
  /** where its objects are stored, when they are another group's (events.k8s.io Events are core's); `conversion` maps the forms */
  storedAs?: StorageKey;
  /** for a version whose objects a call out of the server converts (a custom resource's conversion webhook): how */
  storageConversion?: StorageConversion;
  /** the `Warning` every request of this version gets (a deprecated version of a custom resource) */
  deprecationWarning?: string;
}

/** How the objects of a kind's served version are made from the stored form and back (upstream's conversion funcs). */
export interface VersionConversion {
  toStored(object: KubeObject): KubeObject;
  fromStored(object: KubeObject): KubeObject;
  /** the stored form's shape, where what Go leaves out of it differs from the served one's (see storedShapeOf) */
  storedShape?: StructSchema;
  /**
   * Whether an object's stored texts (its metadata, and its other members) are already its form in the served
   * version, so that a response copies them as they are rather than parsing, converting and writing them again;
   * none: never.
   */
  keepsStoredText?(texts: { metadata: string; rest: string }): boolean;
}

/**
 * How the objects of a served version are made from the stored ones and back by a call out of the server (a
 * conversion webhook), as the apiserver's storage codec converts custom resources: the store converts what it reads
 * and writes, a batch at a time, and everything above it (strategy, field manager, columns) works on the served
 * version. Failures are StatusErrors.
 */
export interface StorageConversion {
  /** stored objects, each in the version its apiVersion names, in the served version */
  fromStored(objects: KubeObject[]): Promise<KubeObject[]>;
  /** an object of the served version in the storage version */
  toStored(object: KubeObject): Promise<KubeObject>;
  /** the storage version's apiVersion, which a write moves an object stored in another version to */
  storedIn: string;
}

/** The shape of a definition's objects as stored, which the store leaves Go's empty fields out of. */
export const storedShapeOf = (def: Pick<KindDefinition, 'strategy' | 'conversion'>): StructSchema => def.conversion?.storedShape ?? def.strategy.shape;

/** What a kind's objects look like on the wire; the built-in kinds have BUILT_IN_WIRE. */
export interface WireForm {
  /** the media types of its request and response bodies (others: 415 and 406) */
  mediaTypes: readonly ('application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf')[];
  /** whether a strategic merge patch applies (415 otherwise: no Go type says how to merge its lists) */
  strategicMerge: boolean;
  /** the members of a list, in the order they are written */
  listMembers: readonly ('kind' | 'apiVersion' | 'metadata' | 'items')[];
  /** whether each item of a list carries kind and apiVersion */
  itemTypeMeta: boolean;
  /** the reason of a watch's 410 for a version older than the history: `Gone` from a watch cache, `Expired` without */
  tooOldWatchReason: 'Gone' | 'Expired';
}

export const BUILT_IN_WIRE: WireForm = {
  mediaTypes: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
  strategicMerge: true,
  listMembers: ['kind', 'apiVersion', 'metadata', 'items'],
  itemTypeMeta: false,
  tooOldWatchReason: 'Gone',
};

export const wireOf = (def: Pick<KindDefinition, 'wire'>): WireForm => def.wire ?? BUILT_IN_WIRE;

/** Where a definition's objects are stored: its own (group, resource), or those of the kind it is served from. */
export const storageKeyOf = (def: Pick<KindDefinition, 'group' | 'resource' | 'storedAs'>): StorageKey =>
  def.storedAs ?? { group: def.group, resource: def.resource };

export const groupVersion = (def: Pick<KindDefinition, 'group' | 'version'>): string =>
  def.group ? `${def.group}/${def.version}` : def.version;

/** A strategy for a kind with no defaults and no checks beyond metadata; kinds override what they need. */
export function defineStrategy(overrides: Partial<KindStrategy> & Pick<KindStrategy, 'nameRule' | 'shape'>): KindStrategy {
  return {
    supportsGenerateName: true,
    generation: 'spec',
    orphanDependentsByDefault: false,
    deleteReturnsObject: false,
    fieldLabels: COMMON_FIELD_LABELS,
    applyDefaults: () => undefined,
    validate: () => [],
    validateUpdate: () => [],
    prepareForUpdate: () => undefined,
    prepareForCreate: () => undefined,
    ...overrides,
  };
}
