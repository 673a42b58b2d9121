import { KubeObject } from '../meta/kube-object';

/**
 * A field a fieldSelector may name: where it is in the object body, and the value it compares as when absent. The
 * store's database layer builds its SQL from the path (src/storage/objects/field-label-sql.ts).
 */
export interface FieldLabel {
  /** the keys from the object's root to the field, e.g. ['status', 'replicas'] */
  path: readonly string[];
  /** the value of an absent (or null) field, as text: Go's zero value of its type */
  absent: string;
  /** a field whose value stands in when this one is empty or absent (an Event's `source`: its reportingComponent) */
  orElse?: readonly string[];
}

/** The fields every kind supports (what apiservers from 1.8 on accept; kubectl and informers rely on them). */
export const COMMON_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = {
  'metadata.name': { path: ['metadata', 'name'], absent: '' },
  'metadata.namespace': { path: ['metadata', 'namespace'], absent: '' },
};

/** A numeric status field, compared as its decimal string (absent counts as 0, Go's zero value). */
export function statusCountLabel(field: string): FieldLabel {
  return { path: ['status', field], absent: '0' };
}

/** The field's value in an object as a fieldSelector compares it: its text, a number as its decimal string. */
export function fieldLabelValue({ path, absent, orElse }: FieldLabel, object: KubeObject): string {
  const valueAt = (keys: readonly string[]) => {
    let value: unknown = object;
    for (const key of keys) value = (value as Record<string, unknown> | null | undefined)?.[key];
    return value === undefined || value === null ? undefined : String(value);
  };
  const value = valueAt(path);
  return (orElse && !value ? valueAt(orElse) : value) ?? absent;
}
