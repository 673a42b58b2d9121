import { apiErrors } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { param, Query } from '../../apimachinery/parameters/query';
import { KindDefinition } from '../../registry/kind-definition';
import { DEFAULT_COLUMNS, Path, TableColumn } from '../../registry/table/table-column';

/** The Table version a client asked for (`as=Table;v=v1;g=meta.k8s.io`). */
export type TableVersion = 'v1' | 'v1beta1';

/** What a row carries beside its cells: nothing, the object's metadata (the default), or the object. */
type IncludeObject = 'None' | 'Metadata' | 'Object';

const INCLUDE_OBJECT: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/**
 * Turns objects into a meta.k8s.io Table with the columns the kind's row declares (the default NAME and AGE
 * otherwise), as upstream's TableConvertor: every kind's table is made here, from its declared columns.
 */
export class TableConvertor {
  private readonly columns: readonly TableColumn[];
  private readonly includeObject: IncludeObject;

  constructor(
    private readonly def: KindDefinition,
    private readonly version: TableVersion,
    query: Query,
  ) {
    this.columns = def.columns ?? DEFAULT_COLUMNS;
    const include = param(query, 'includeObject') ?? 'Metadata';
    if (!INCLUDE_OBJECT.includes(include as IncludeObject)) {
      throw apiErrors.badRequest(`includeObject: Unsupported value: "${include}": supported values: "None", "Metadata", "Object"`);
    }
    this.includeObject = include as IncludeObject;
  }

  /** The parts of an object the rows need, besides which a list need not read it; all of it for `Object` rows. */
  projection(): Path[] | undefined {
    if (this.includeObject === 'Object') return undefined;
    return [['metadata'], ...this.columns.flatMap((column) => column.reads)];
  }

  /** The Table of a list's items (objects as a response carries them, without their kind), with its metadata. */
  list(items: KubeObject[], metadata: Record<string, unknown>): Record<string, unknown> {
    return { ...this.empty(metadata), rows: items.map(this.rows()) };
  }

  /** The Table of one object: a single row. */
  object(object: KubeObject): Record<string, unknown> {
    return this.list([object], {});
  }

  /** A Table without rows: what comes before them (`rows` is its last member). */
  empty(metadata: Record<string, unknown>): Record<string, unknown> {
    return {
      kind: 'Table',
      apiVersion: `meta.k8s.io/${this.version}`,
      metadata,
      columnDefinitions: this.columns.map(({ name, type, format, description, priority }) => ({
        name,
        type,
        format: format ?? '',
        description,
        priority: priority ?? 0,
      })),
      rows: [],
    };
  }

  /** What makes the row of each object of one Table: its ages are counted from the same moment. */
  rows(): (item: KubeObject) => Record<string, unknown> {
    const now = Date.now();
    return (item) => ({ cells: this.columns.map((column) => column.cell(item, now)), ...this.rowObject(item) });
  }

  private rowObject(item: KubeObject): { object?: unknown } {
    const apiVersion = this.def.group ? `${this.def.group}/${this.def.version}` : this.def.version;
    switch (this.includeObject) {
      case 'None':
        return {};
      case 'Metadata':
        return { object: { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${this.version}`, metadata: item.metadata } };
      case 'Object':
        return { object: { kind: this.def.kind, apiVersion, ...item } };
    }
  }
}
