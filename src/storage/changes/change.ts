import { StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change, as read from the change_log table. */
export interface Change {
  resourceVersion: bigint;
  type: ChangeType;
  group: string;
  resource: string;
  namespace: string;
  name: string;
  /** the new state; for DELETED, the last state. Without metadata.resourceVersion, as stored. */
  object: KubeObject;
  /** the state before a MODIFIED change */
  previous?: KubeObject;
  /** set when `object` and `previous` hold only their metadata, read for subscribers of metadata alone */
  metadataOnly?: true;
  /** why the objects' values could not be decrypted (encryption at rest): a watch ends with this error */
  unreadable?: StatusError;
}

export interface ChangeRow {
  resource_version: string;
  event_type: ChangeType;
  api_group: string;
  resource: string;
  namespace: string;
  name: string;
  object: KubeObject;
  previous_object: KubeObject | null;
}

/**
 * The columns of a change. resource_version comes back as a decimal string (pg's bigint); it must not be cast in
 * the select list, where `resource_version::text` would shadow the column in ORDER BY and sort "100" before "99".
 */
export const CHANGE_COLUMNS =
  'resource_version, event_type, api_group, resource, namespace, name, object, previous_object';

export function toChange(row: ChangeRow): Change {
  return {
    resourceVersion: BigInt(row.resource_version),
    type: row.event_type,
    group: row.api_group,
    resource: row.resource,
    namespace: row.namespace,
    name: row.name,
    object: row.object,
    previous: row.previous_object ?? undefined,
  };
}

/** The key under which watchers of one resource are found. */
export const resourceKey = (group: string, resource: string) => `${group}/${resource}`;

/** The key of a subscriber that receives the changes of every resource. */
export const ALL_RESOURCES = '*';
