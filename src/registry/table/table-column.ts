import { KubeObject } from '../../apimachinery/meta/kube-object';
import { humanDuration } from './human-duration';

export type Path = readonly string[];

/** One column of a kind's Table (upstream's TableColumnDefinition and the printer's cell for it). */
export interface TableColumn {
  name: string;
  /** an OpenAPI type: string, integer, number, boolean, date */
  type: string;
  /** `name` on the column that identifies the object */
  format?: string;
  description: string;
  /** 0: always shown; 1: shown by `-o wide` */
  priority?: number;
  /** the parts of the object the cell reads besides its metadata (JSON paths), so that a list reads no more */
  reads: readonly Path[];
  /** the cell of an object (as a response carries it), at time `now` (ms) */
  cell(object: KubeObject, now: number): unknown;
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'The name of the object, unique within its namespace.',
  reads: [],
  cell: (object) => object.metadata.name ?? '',
};

export const AGE_COLUMN: TableColumn = {
  name: 'Age',
  type: 'string',
  description: 'How long ago the object was created.',
  reads: [],
  cell: (object, now) => {
    const created = object.metadata.creationTimestamp;
    return typeof created === 'string' ? humanDuration(now - Date.parse(created)) : '<unknown>';
  },
};

/** The columns of a kind no printer knows, as the apiserver's default table convertor gives them. */
export const DEFAULT_COLUMNS: readonly TableColumn[] = [NAME_COLUMN, AGE_COLUMN];

/** A column of a kind's own: its name, type and description, the paths its cell reads, and the cell. */
export const column = (name: string, type: string, description: string, reads: readonly Path[], cell: TableColumn['cell'], priority = 0): TableColumn => ({
  name,
  type,
  description,
  priority,
  reads,
  cell,
});
