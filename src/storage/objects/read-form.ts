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
  /**
   * the texts written of this item, by writer and form, when the item is kept to be read again (OutputCache): an item
   * read again is written again without work
   */
  written?: WrittenTexts;
}

/** The writers whose texts an item keeps: a kind's definitions replaced since (a CRD's, on each change) let theirs go. */
const WRITERS_KEPT = 4;

/**
 * Texts written of one item kept to be read again: by writer (an object: a kind's definition), then by form; each
 * text added or dropped is told to `grew`, which counts it with the item.
 */
export class WrittenTexts {
  private readonly byWriter = new Map<object, Map<string, string>>();

  constructor(private readonly grew: (chars: number) => void) {}

  get(writer: object, form: string): string | undefined {
    return this.byWriter.get(writer)?.get(form);
  }

  set(writer: object, form: string, text: string): void {
    let forms = this.byWriter.get(writer);
    if (!forms) {
      if (this.byWriter.size === WRITERS_KEPT) this.dropOldestWriter();
      this.byWriter.set(writer, (forms = new Map()));
    }
    forms.set(form, text);
    this.grew(text.length);
  }

  private dropOldestWriter(): void {
    const [writer, forms] = this.byWriter.entries().next().value as [object, Map<string, string>];
    this.byWriter.delete(writer);
    let chars = 0;
    for (const text of forms.values()) chars += text.length;
    this.grew(-chars);
  }
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
  /** null when the read was told the reader already holds this resourceVersion's item (see outputColumns) */
  rest: string | null;
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
 * carry). `known`, a condition that holds for the rows whose items the reader holds already (by resourceVersion, see
 * OutputCache): those rows' texts are not written (all null), which spares PostgreSQL the body's conversion to text
 * and the server its parsing.
 */
export function outputColumns(body: string, storedVersion = false, known?: string): string {
  const unlessKnown = (text: string) => (known === undefined ? text : `CASE WHEN ${known} THEN NULL ELSE ${text} END`);
  return (
    `${unlessKnown(`((${body}->'metadata') - 'managedFields')::text`)} AS metadata, ${unlessKnown(`(${body} #> '{metadata,managedFields}')::text`)} AS managed_fields, ` +
    `${unlessKnown(`(${body} - '{kind,apiVersion,metadata}'::text[])::text`)} AS rest${storedVersion ? `, ${body}->>'apiVersion' AS api_version` : ''}`
  );
}

/** A row just read, its body parsed for this reader alone: the body itself is given its resourceVersion. */
function readObject(row: ObjectRow): KubeObject {
  row.body.metadata.resourceVersion = row.resource_version;
  return row.body;
}

/** The item of a row whose texts were read (not one the reader holds already: see outputColumns). */
export const outputItem = (row: OutputRow): OutputItem => ({
  resourceVersion: row.resource_version,
  metadata: row.metadata ?? '{}',
  rest: row.rest as string,
  ...(row.managed_fields != null && { managedFields: row.managed_fields }),
  ...(row.api_version != null && { apiVersion: row.api_version }),
});

const ITEM_READERS: { [F in ReadForm]: (row: FormRow[F]) => FormItem[F] } = { object: readObject, output: outputItem };

/** How a row of the form becomes its item. */
export const itemReader = <F extends ReadForm>(form: F) => ITEM_READERS[form] as (row: FormRow[F]) => FormItem[F];
