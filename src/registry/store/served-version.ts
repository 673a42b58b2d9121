import { KubeObject, ObjectMeta } from '../../apimachinery/meta/kube-object';
import { ListCursor } from '../../storage/objects/list-cursor';
import { OutputItem } from '../../storage/objects/read-form';
import { KindDefinition, StorageConversion, storageKeyOf } from '../kind-definition';
import { ObjectStore } from '../../storage/objects/object-store';
import { ListQuery } from '../../storage/objects/list-query';

/**
 * The store's side of a StorageConversion: what it reads, in the version a row serves, and what it writes, in the
 * storage version. Rows without one (every built-in kind) pass through unchanged, with no await.
 */

/** A row whose objects a call converts. */
export type Converted = KindDefinition & { storageConversion: StorageConversion };

export const convertsByCall = (def: KindDefinition): def is Converted => def.storageConversion !== undefined;

/** An item read for output as the object of `kind` it holds (its apiVersion read with it: ListQuery's storedVersions). */
function itemObject(kind: string, item: OutputItem): KubeObject {
  const object = { kind, ...(item.apiVersion !== undefined && { apiVersion: item.apiVersion }), ...(JSON.parse(item.rest) as Record<string, unknown>) };
  const metadata = JSON.parse(item.metadata) as ObjectMeta;
  if (item.managedFields !== undefined) metadata.managedFields = JSON.parse(item.managedFields);
  metadata.resourceVersion = item.resourceVersion;
  return { ...object, metadata } as KubeObject;
}

/** An object as an item for output: its metadata (with its managed fields) and the rest, as text. */
export function objectItem(object: KubeObject): OutputItem {
  const { kind: _kind, apiVersion: _apiVersion, metadata, ...rest } = object;
  const { resourceVersion, ...stored } = metadata;
  return { resourceVersion: resourceVersion as string, metadata: JSON.stringify(stored), rest: JSON.stringify(rest) };
}

/** Items read for output, converted to the version the row serves. */
export async function servedItems(def: Converted, items: OutputItem[]): Promise<OutputItem[]> {
  return (await def.storageConversion.fromStored(items.map((item) => itemObject(def.kind, item)))).map(objectItem);
}

/**
 * ObjectStore's openList for a row: for one whose objects a call converts, of whole bodies with the apiVersion each
 * was stored with, each batch converted to the row's version as it is read.
 */
export function openServedList(store: ObjectStore, def: KindDefinition, query: ListQuery): Promise<ListCursor> {
  if (!convertsByCall(def)) return store.openList(storageKeyOf(def), query);
  return store
    .openList(storageKeyOf(def), { ...query, projection: undefined, storedVersions: true })
    .then((cursor) => cursor.convertBatches((items) => servedItems(def, items)));
}
