import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { isPlainObject, KubeObject } from '../../apimachinery/meta/kube-object';
import { ObjectKey, StorageKey } from '../objects/object-key';
import { OutputItem } from '../objects/read-form';
import type { EncryptableResource, ResourceTransformers } from './encryption-configuration';
import { IDENTITY, UnreadableValue, ValueTransformer } from './value-transformer';
import { OpenedValues } from './opened-values';
import { packTexts, SealedTexts, unpackTexts } from './sealed-texts';
import { OutputRange, sealedMemberRange, splicedText, valueRange } from './output-ranges';

/** Injection token of the transformers the server's EncryptionConfiguration gives each resource. */
export const RESOURCE_TRANSFORMERS = Symbol('RESOURCE_TRANSFORMERS');

/** The member of a stored body that holds its values sealed: no API field's name begins with `$`. */
const SEALED = '$sealed';

/** The members of each encryptable resource whose values (not keys) are sealed. */
const VALUE_MAPS: Readonly<Record<EncryptableResource, readonly string[]>> = {
  secrets: ['data'],
  configmaps: ['data', 'binaryData'],
};

/** kubectl's copy of the object it applied, values and all, which is sealed too. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What each sealed value leaves in the clear. */
const PLACEHOLDER = '';

type Values = Record<string, unknown>;

/** Characters of opened objects' values kept (OpenedValues): some 32 MB. */
const OPENED_VALUES_CHARS = 16 * 1024 * 1024;

/**
 * Encryption at rest (upstream's value transformers, which sit in the storage layer): for the resources the
 * EncryptionConfiguration names, the values of an object's data maps, and kubectl's last-applied annotation, are
 * stored as one ciphertext (`k8s:enc:<provider>:v1:<key>:<base64>`) in the body's `$sealed` member, bound to the
 * object's key; everything else of the body stays in the clear, the maps keeping their key names with empty values,
 * so that selectors, pages, the garbage collector and the SQL views keep working. Every body read from `objects` or
 * the change log passes through `open` (or `openOutput`) before it leaves the storage layer.
 */
@Injectable()
export class EncryptionAtRest implements OnModuleInit {
  /** objects read with another provider (or key) than the one that writes: an update must rewrite them */
  private readonly stale = new WeakSet<object>();
  /** objects' values opened with the first provider, which reads of the same objects find again without decrypting */
  private readonly opened = new OpenedValues(OPENED_VALUES_CHARS);

  constructor(@Inject(RESOURCE_TRANSFORMERS) private readonly transformers: ResourceTransformers) {}

  onModuleInit(): void {
    for (const [resource, transformer] of this.transformers) {
      const writer = transformer.providers[0];
      new Logger('EncryptionAtRest').log({ message: 'values stored through the encryption configuration', resource, writtenBy: writer === IDENTITY ? IDENTITY : writer.prefix });
    }
  }

  private transformerOf(key: StorageKey): ValueTransformer | undefined {
    return key.group === '' ? this.transformers.get(key.resource as EncryptableResource) : undefined;
  }

  /** The body to store for `object`: a copy with its values sealed (the object itself is left as it is). */
  seal(key: StorageKey, object: KubeObject): KubeObject {
    const transformer = this.transformerOf(key);
    if (!transformer || transformer.writesPlain) return object;
    const where = context({ ...key, namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' });
    const { clear, texts } = takeValuesOut(key.resource as EncryptableResource, object);
    const stored = transformer.seal(packTexts(texts), where);
    this.opened.written(where, stored, texts);
    return { ...clear, [SEALED]: stored };
  }

  /** A body as read (parsed), its values put back in place; a stored object is marked stale when it needs rewriting. */
  open<T extends Values>(key: ObjectKey, body: T): T {
    const transformer = this.transformerOf(key);
    if (!transformer || !isPlainObject(body)) return body;
    const { texts, stale } = this.openValues(transformer, key, body[SEALED]);
    delete body[SEALED];
    putValuesBack(body, texts);
    if (stale) this.stale.add(body);
    return body;
  }

  /**
   * An object read for output (its JSON texts), with its values put back. The texts are not parsed: the sealed
   * member is cut out of them, and each map of placeholders (key names, which hold no braces or quotes, and empty
   * strings) and the last-applied annotation's placeholder replaced by the opened JSON text, so that a response
   * costs little more than one of an object stored in the clear.
   */
  openOutput(key: ObjectKey, item: OutputItem): OutputItem {
    const transformer = this.transformerOf(key);
    if (!transformer) return item;
    const sealed = sealedMemberRange(item.rest, SEALED);
    if (sealed === undefined) {
      if (item.rest.includes(`"${SEALED}"`)) return this.openOutputSlowly(key, item);
      this.openValues(transformer, key, undefined); // stored in the clear: readable only through identity
      return item;
    }
    const { texts } = this.openValues(transformer, key, sealed.stored);
    return withValuesSpliced(item, sealed, texts) ?? this.openOutputSlowly(key, item);
  }

  /** Whether a stored object just read was written by another provider or key than the first: rewrite it on update. */
  isStale(object: object): boolean {
    return this.stale.has(object);
  }

  /** An output item opened by parsing and writing it again: for texts not as PostgreSQL writes them. */
  private openOutputSlowly(key: ObjectKey, item: OutputItem): OutputItem {
    const { metadata, ...rest } = this.open(key, { ...(JSON.parse(item.rest) as Values), metadata: JSON.parse(item.metadata) as unknown });
    return { ...item, metadata: JSON.stringify(metadata), rest: JSON.stringify(rest) };
  }

  /**
   * The JSON texts of an object's sealed values (known already, or decrypted now; none when it was stored in the
   * clear), and whether it was read by another provider than the first.
   */
  private openValues(transformer: ValueTransformer, key: ObjectKey, stored: unknown): { texts: SealedTexts; stale: boolean } {
    const where = context(key);
    try {
      if (stored === undefined) return { texts: {}, stale: transformer.clearIsStale() };
      if (typeof stored !== 'string') throw new UnreadableValue(`its ${SEALED} member is not a string`);
      const known = this.opened.get(where, stored);
      if (known !== undefined) return { texts: known, stale: false };
      const { plain, stale } = transformer.open(stored, where);
      const texts = unpackTexts(plain);
      if (!stale) this.opened.read(where, stored, texts);
      return { texts, stale };
    } catch (error) {
      if (!(error instanceof UnreadableValue)) throw error;
      const object = key.namespace ? `${key.resource} "${key.name}" in namespace "${key.namespace}"` : `${key.resource} "${key.name}"`;
      throw apiErrors.internal(`unable to decrypt ${object}: ${error.message}`);
    }
  }
}

/** What an object's sealed values are bound to (aesgcm's additional data): the object's key. */
const context = (key: ObjectKey) => `${key.group}/${key.resource}/${key.namespace}/${key.name}`;

/** An object's body with placeholders for its values, and the JSON texts of the values taken out. */
function takeValuesOut(resource: EncryptableResource, object: KubeObject): { clear: KubeObject & Values; texts: SealedTexts } {
  const clear: KubeObject & Values = { ...object };
  const texts: Record<string, string> = {};
  for (const member of VALUE_MAPS[resource]) {
    const values = clear[member];
    if (!isPlainObject(values)) continue;
    texts[member] = JSON.stringify(values);
    clear[member] = Object.fromEntries(Object.keys(values).map((name) => [name, PLACEHOLDER]));
  }
  const annotations = object.metadata.annotations;
  if (annotations?.[LAST_APPLIED] !== undefined) {
    texts[LAST_APPLIED] = JSON.stringify(annotations[LAST_APPLIED]);
    clear.metadata = { ...object.metadata, annotations: { ...annotations, [LAST_APPLIED]: PLACEHOLDER } };
  }
  return { clear, texts };
}

function putValuesBack(body: Values, texts: SealedTexts): void {
  for (const [member, text] of Object.entries(texts)) {
    if (member === LAST_APPLIED) ((body.metadata as Values).annotations as Values)[LAST_APPLIED] = JSON.parse(text);
    else body[member] = JSON.parse(text);
  }
}

/** An output item with its sealed member cut out and its values spliced in; undefined when a placeholder is not found. */
function withValuesSpliced(item: OutputItem, sealed: OutputRange, texts: SealedTexts): OutputItem | undefined {
  const restRanges = [sealed];
  let metadata = item.metadata;
  for (const [member, text] of Object.entries(texts)) {
    const inMetadata = member === LAST_APPLIED;
    const range = inMetadata ? valueRange(item.metadata, 'annotations', LAST_APPLIED, text) : valueRange(item.rest, undefined, member, text);
    if (range === undefined) return undefined;
    if (inMetadata) metadata = splicedText(item.metadata, [range]);
    else restRanges.push(range);
  }
  return { ...item, metadata, rest: splicedText(item.rest, restRanges) };
}
