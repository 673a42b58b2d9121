import { KubeObject } from '../meta/kube-object';

/** A field a fieldSelector may name: how to read it in SQL (over the objects table) and from an object. */
export interface FieldLabel {
  /** an SQL expression of type text over the `objects` row */
  sql: string;
  value(object: KubeObject): string;
}

/** The fields every kind supports (what apiservers from 1.8 on accept; kubectl and informers rely on them). */
export const COMMON_FIELD_LABELS: Readonly<Record<string, FieldLabel>> = {
  'metadata.name': { sql: 'name', value: (o) => o.metadata.name ?? '' },
  'metadata.namespace': { sql: 'namespace', value: (o) => o.metadata.namespace ?? '' },
};

/** A numeric status field, compared as its decimal string (absent counts as 0, Go's zero value). */
export function statusCountLabel(field: string): FieldLabel {
  return {
    sql: `COALESCE(body #>> '{status,${field}}', '0')`,
    value: (o) => String((o.status as Record<string, unknown> | undefined)?.[field] ?? 0),
  };
}
