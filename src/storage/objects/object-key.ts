/** Where a kind's objects live: the (api_group, resource) pair of the `objects` table. */
export interface StorageKey {
  group: string;
  resource: string;
}

/** The key of one object: its kind's storage key, its namespace ('' for a cluster-scoped kind) and its name. */
export interface ObjectKey extends StorageKey {
  namespace: string;
  name: string;
}

/** Where a list page ends: the key of its last object within the kind. */
export interface ListKey {
  namespace: string;
  name: string;
}
