import { FieldError } from '../errors/field-error';
import { KubeObject } from '../meta/kube-object';
import { COMMON_FIELD_LABELS, FieldLabel } from '../selectors/field-labels';
import { NameRule } from '../validation/names';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface SubresourceDefinition {
  /** the path segment after the object name: status, scale, rollback */
  name: string;
  /** the kind that the subresource reads and writes (discovery shows it) */
  kind: string;
  verbs: readonly Verb[];
}

/**
 * How the server treats `metadata.generation` of a kind: `client` keeps what the client sent and never changes it;
 * `spec` sets 1 on create and adds 1 when the spec changes; `spec-and-annotations` also adds 1 on annotation changes.
 */
export type GenerationPolicy = 'client' | 'spec' | 'spec-and-annotations';

/** What is particular to one kind: the counterpart of the apiserver's per-kind strategy.go. */
export interface KindStrategy {
  nameRule: NameRule;
  supportsGenerateName: boolean;
  /** top-level fields of the kind besides kind, apiVersion and metadata; others are dropped on input */
  fields: readonly string[];
  /** a `status` that the main resource cannot write: reset on create, kept on update */
  hasStatus: boolean;
  generation: GenerationPolicy;
  /** true for kinds whose dependents are orphaned when a delete names no policy */
  orphanDependentsByDefault: boolean;
  /** true when DELETE answers with the deleted object instead of a Status (the federation Cluster) */
  deleteReturnsObject: boolean;
  /** the fields a fieldSelector may name */
  fieldLabels: Readonly<Record<string, FieldLabel>>;
  /** fills in the kind's defaults; runs on every decoded body */
  applyDefaults(object: KubeObject): void;
  /** kind-specific checks of a new object (metadata is checked by the generic store) */
  validate(object: KubeObject): FieldError[];
  /** kind-specific checks of an update */
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  /** kind-specific work on update besides status and generation (e.g. a DaemonSet's templateGeneration) */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  /** kind-specific work on create besides status and generation */
  prepareForCreate(object: KubeObject): void;
}

/** One served resource: a row of the kind registry. */
export interface KindDefinition {
  group: string;
  version: string;
  /** plural, the path segment */
  resource: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  /** verbs of the resource itself; empty for a placeholder that only carries subresources */
  verbs: readonly Verb[];
  subresources: readonly SubresourceDefinition[];
  strategy: KindStrategy;
}

export const groupVersion = (def: Pick<KindDefinition, 'group' | 'version'>): string =>
  def.group ? `${def.group}/${def.version}` : def.version;

/** A strategy for a kind with no defaults and no checks beyond metadata; kinds override what they need. */
export function defineStrategy(overrides: Partial<KindStrategy> & Pick<KindStrategy, 'nameRule' | 'fields'>): KindStrategy {
  return {
    supportsGenerateName: true,
    hasStatus: false,
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
