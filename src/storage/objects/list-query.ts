import { FieldLabel } from '../../apimachinery/selectors/field-labels';
import { LabelRequirement } from '../../apimachinery/selectors/label-selector';
import { ListKey } from './object-key';

/** A field selector's term, its field resolved to where the kind keeps it. */
export interface FieldRequirement {
  label: FieldLabel;
  operator: '=' | '!=';
  value: string;
}

/** Which objects of a kind a list reads; every requirement must hold. */
export interface ListSelection {
  /** only this namespace's objects (unset: every namespace) */
  namespace?: string;
  labels?: readonly LabelRequirement[];
  fields?: readonly FieldRequirement[];
  /** only the objects no initializer is pending on (unset: every object) */
  onlyInitialized?: boolean;
}

/** Which part of which state a list reads. */
export interface ListRange {
  /** the state at this resourceVersion, rebuilt from the change log; unset: the newest state */
  at?: bigint;
  /** only objects after this key (a continued list) */
  after?: ListKey;
  /** at most this many objects (one more is read, to tell whether the list goes on) */
  limit?: number;
  /**
   * any state will do, however old (resourceVersion=0, upstream's "any"): a streaming standby may serve it, and
   * the state read may be older than what the client saw elsewhere
   */
  mayBeStale?: boolean;
}

/** The keys from a body's root to one of its values, e.g. ['status', 'replicas']. */
export type JsonPath = readonly string[];

/** A list read: the objects selected, the part of the state, and the paths of each body the reader needs. */
export interface ListQuery extends ListSelection, ListRange {
  /** each body cut down to these paths (a Table's cells read only those); unset: whole bodies */
  projection?: readonly JsonPath[];
  /** each item read for output with the apiVersion its body was stored with (for a conversion that needs it) */
  storedVersions?: boolean;
}
