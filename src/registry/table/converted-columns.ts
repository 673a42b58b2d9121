import { KubeObject } from '../../apimachinery/meta/kube-object';
import { VersionConversion } from '../kind-definition';
import { TableColumn } from './table-column';

/** The columns of a stored kind for a version served converted: each cell reads the object in the stored form. */
export const convertedColumns = (columns: readonly TableColumn[], conversion: VersionConversion): readonly TableColumn[] =>
  columns.map((column) => ({ ...column, cell: (object: KubeObject, now: number) => column.cell(conversion.toStored(object), now) }));
