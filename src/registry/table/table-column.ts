import { KubeObject } from '../../apimachinery/meta/kube-object';
import { humanDuration } from './human-duration';

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
  /** the cell of an object (as a response carries it), at time `now` (ms) */
  cell(object: KubeObject, now: number): unknown;
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'The name of the object, unique within its namespace.',
  cell: (object) => object.metadata.name ?? '',
};

export const AGE_COLUMN: TableColumn = {
  name: 'Age',
  type: 'string',
  description: 'How long ago the object was created.',
  cell: (object, now) => {
    const created = object.metadata.creationTimestamp;
    return typeof created === 'string' ? humanDuration(now - Date.parse(created)) : '<unknown>';
  },
};

/** The columns of a kind no printer knows, as the apiserver's default table convertor gives them. */
export const DEFAULT_COLUMNS: readonly TableColumn[] = [NAME_COLUMN, AGE_COLUMN];

/** A column of a kind's own, from its name, type, description and cell. */
export const column = (name: string, type: string, description: string, cell: TableColumn['cell'], priority = 0): TableColumn => ({
  name,
  type,
  description,
  priority,
  cell,
});
