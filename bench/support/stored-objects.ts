import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { deployment } from './deployment';

export interface StoredBody {
  metadata: Record<string, unknown>;
  [field: string]: unknown;
}

/** A Deployment as the server stores it (created through the API, then removed with SQL to be copied). */
export async function storedTemplate(base: string, sql: Client): Promise<StoredBody> {
  const response = await fetch(`${base}/apis/extensions/v1beta1/namespaces/template/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(deployment('template')),
  });
  if (response.status !== 201) throw new Error(`template create failed: ${await response.text()}`);
  const { rows } = await sql.query<{ body: StoredBody }>(`DELETE FROM objects WHERE namespace = 'template' RETURNING body`);
  return rows[0].body;
}

/** A copy of the template with its own name, namespace, uid and extra labels. */
export function copyOf(template: StoredBody, namespace: string, name: string, labels: Record<string, string> = {}): StoredBody {
  const allLabels = { ...(template.metadata.labels as object), ...labels };
  return { ...template, metadata: { ...template.metadata, name, namespace, uid: randomUUID(), labels: allLabels } };
}

/**
 * Inserts the bodies (Deployments, unless `key` names another resource) with plain SQL in one statement (one transaction; the triggers give each row its own
 * resourceVersion and change-log row, as for API writes) and returns their resourceVersions.
 */
export async function insertObjects(
  sql: Client,
  bodies: StoredBody[],
  key: { group: string; resource: string } = { group: 'extensions', resource: 'deployments' },
): Promise<string[]> {
  const { rows } = await sql.query<{ resource_version: string }>(
    `INSERT INTO objects (api_group, resource, body)
     SELECT $2, $3, value FROM jsonb_array_elements($1::jsonb) RETURNING resource_version`,
    [JSON.stringify(bodies), key.group, key.resource],
  );
  return rows.map((r) => r.resource_version);
}
