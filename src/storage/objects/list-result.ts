import { KubeObject } from '../../apimachinery/meta/kube-object';
import { ListRange } from './list-query';
import { ListKey } from './object-key';

/** The state a list reads: its resourceVersion, and what the snapshot it was read in saw of the change log. */
export interface ListSnapshot {
  /** the resourceVersion of the state read: the one asked for, or the newest committed one in the same snapshot */
  resourceVersion: string;
  /** the newest committed resourceVersion in the snapshot the items were read in */
  newestVersion: bigint;
  /** changes up to this resourceVersion may have left the change log: a state before it cannot be rebuilt */
  compactedThrough: bigint;
}

export interface ListResult<Item = KubeObject> extends ListSnapshot {
  items: Item[];
  /** the key of the last item, when more objects follow it */
  continueAfter?: ListKey;
}

/** A row of a list statement: the snapshot's columns, and the object's (all null when no object matched). */
export type ListRow<Columns> = ListKey &
  Columns & {
    newest_version: string;
    compacted_through: string;
  };

export function listResult<Columns extends { resource_version: string }, Item>(
  rows: ListRow<Columns>[],
  range: ListRange,
  item: (row: ListRow<Columns>) => Item,
): ListResult<Item> {
  const { newest_version: newest, compacted_through: compactedThrough } = rows[0];
  const found = rows.filter((r) => r.resource_version !== null);
  const page = range.limit === undefined ? found : found.slice(0, range.limit);
  const last = page[page.length - 1];
  return {
    resourceVersion: range.at === undefined ? newest : range.at.toString(),
    newestVersion: BigInt(newest),
    compactedThrough: BigInt(compactedThrough),
    items: page.map(item),
    continueAfter: found.length > page.length ? { namespace: last.namespace, name: last.name } : undefined,
  };
}
