import { KubeObject } from '../../apimachinery/meta/kube-object';

/**
 * What a read returns of each object: `object`, its body parsed; `output`, its body as JSON text in parts (an
 * OutputItem), which a response carries mostly as it is, so that the server only parses the metadata, to add the
 * selfLink and resourceVersion, and copies the rest as PostgreSQL wrote it.
 */
export type ReadForm = 'object' | 'output';

/**
 * An object read for output, as JSON text: its metadata (without resourceVersion and selfLink, as stored) and an
 * object of its other members but kind and apiVersion.
 */
export interface OutputItem {
  resourceVersion: string;
  metadata: string;
  rest: string;
  /** the metadata's managedFields, when read apart from the rest of the metadata (which then lacks them) */
  managedFields?: string;
  /** the apiVersion the body was stored with, when the read asked for it (ListQuery's storedVersions) */
  apiVersion?: string;
}

/** The item of each read form. */
export interface FormItem {
  object: KubeObject;
  output: OutputItem;
}

export interface ObjectRow {
  resource_version: string;
  body: KubeObject;
}

export interface OutputRow {
  resource_version: string;
  metadata: string | null;
  rest: string;
  managed_fields: string | null;
  api_version?: string | null;
}

/** The row of each read form: the object's resourceVersion and the form's columns. */
export interface FormRow {
  object: ObjectRow;
  output: OutputRow;
}

/**
 * A body read for output (OutputItem), as JSON text: its metadata but the managed fields, the managed fields (most of
 * the metadata, copied rather than parsed), and its other members but kind and apiVersion (which list items do not
 * carry).
 */
export const outputColumns = (body: string, storedVersion = false) =>
  `((${body}->'metadata') - 'managedFields')::text AS metadata, (${body} #> '{metadata,managedFields}')::text AS managed_fields, ` +
  `(${body} - '{kind,apiVersion,metadata}'::text[])::text AS rest${storedVersion ? `, ${body}->>'apiVersion' AS api_version` : ''}`;

/** A row just read, its body parsed for this reader alone: the body itself is given its resourceVersion. */
function readObject(row: ObjectRow): KubeObject {
  row.body.metadata.resourceVersion = row.resource_version;
  return row.body;
}

export const outputItem = (row: OutputRow): OutputItem => ({
  resourceVersion: row.resource_version,
  metadata: row.metadata ?? '{}',
  rest: row.rest,
  ...(row.managed_fields != null && { managedFields: row.managed_fields }),
  ...(row.api_version != null && { apiVersion: row.api_version }),
});

const ITEM_READERS: { [F in ReadForm]: (row: FormRow[F]) => FormItem[F] } = { object: readObject, output: outputItem };

/** How a row of the form becomes its item. */
export const itemReader = <F extends ReadForm>(form: F) => ITEM_READERS[form] as (row: FormRow[F]) => FormItem[F];
