import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { isPlainObject, KubeObject } from '../../apimachinery/meta/kube-object';
import { ObjectKey, StorageKey } from '../objects/object-key';
import { OutputItem } from '../objects/read-form';
import type { EncryptableResource, ResourceTransformers } from './encryption-configuration';
import { ENCRYPTED, IDENTITY, UnreadableValue, ValueTransformer } from './value-transformer';
import { OpenedValue, OpenedValues } from './opened-values';

/** Injection token of the transformers the server's EncryptionConfiguration gives each resource. */
export const RESOURCE_TRANSFORMERS = Symbol('RESOURCE_TRANSFORMERS');

/**
 * The members of each encryptable resource whose values (not keys) are stored encrypted, with what their values
 * hold: text (sealed as its UTF-8), or bytes as base64 text (sealed as the bytes themselves).
 */
const VALUE_MAPS: Readonly<Record<EncryptableResource, readonly [string, BufferEncoding][]>> = {
  secrets: [['data', 'base64']],
  configmaps: [
    ['data', 'utf8'],
    ['binaryData', 'base64'],
  ],
};

/** kubectl's copy of the object it applied, values and all, which is encrypted too. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const LAST_APPLIED_FIELD = `metadata.annotations[${LAST_APPLIED}]`;

type Values = Record<string, unknown>;

/** Characters of opened values kept (OpenedValues): some 32 MB. */
const OPENED_VALUES_CHARS = 16 * 1024 * 1024;

/** One sealed value found in a body: where it is, what it stored, and the value it stands for once opened. */
interface SealedValue {
  field: string;
  stored: string;
  encoding: BufferEncoding;
}

/**
 * Encryption at rest (upstream's value transformers, which sit in the storage layer): for the resources the
 * EncryptionConfiguration names, each value of their data maps, and kubectl's last-applied annotation, is stored as
 * ciphertext (`k8s:enc:<provider>:v1:<key>:<base64>`) while everything else of the body stays in the clear, so that
 * selectors, pages, the garbage collector and the SQL views keep working. Every body read from `objects` or the
 * change log passes through `open` (or `openOutput`) before it leaves the storage layer.
 */
@Injectable()
export class EncryptionAtRest implements OnModuleInit {
  /** objects read with another provider (or key) than the one that writes: an update must rewrite them */
  private readonly stale = new WeakSet<object>();
  /** values opened with the first provider, which reads of the same objects find again without decrypting */
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
    const where = { ...key, namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' };
    const sealed: Values = { ...object };
    for (const [member, encoding] of VALUE_MAPS[key.resource as EncryptableResource]) {
      const values = sealed[member];
      if (!isPlainObject(values)) continue;
      sealed[member] = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? this.sealValue(transformer, where, `${member}[${name}]`, value, encoding) : value]),
      );
    }
    const annotations = object.metadata.annotations;
    if (annotations?.[LAST_APPLIED] !== undefined) {
      const lastApplied = this.sealValue(transformer, where, LAST_APPLIED_FIELD, annotations[LAST_APPLIED], 'utf8');
      sealed.metadata = { ...object.metadata, annotations: { ...annotations, [LAST_APPLIED]: lastApplied } };
    }
    return sealed as KubeObject;
  }

  /** A body as read (parsed), its values opened in place; a stored object is marked stale when it needs rewriting. */
  open<T extends Values>(key: ObjectKey, body: T): T {
    const transformer = this.transformerOf(key);
    if (!transformer || !isPlainObject(body)) return body;
    let stale = false;
    for (const [member, encoding] of VALUE_MAPS[key.resource as EncryptableResource]) {
      const values = body[member];
      if (!isPlainObject(values)) continue;
      for (const [name, value] of Object.entries(values)) {
        if (typeof value !== 'string') continue;
        const { opened, stale: read } = this.openValue(transformer, key, { field: `${member}[${name}]`, stored: value, encoding });
        values[name] = opened.value;
        stale ||= read;
      }
    }
    const annotations = isPlainObject(body.metadata) ? body.metadata.annotations : undefined;
    if (isPlainObject(annotations) && typeof annotations[LAST_APPLIED] === 'string') {
      const { opened, stale: read } = this.openValue(transformer, key, { field: LAST_APPLIED_FIELD, stored: annotations[LAST_APPLIED], encoding: 'utf8' });
      annotations[LAST_APPLIED] = opened.value;
      stale ||= read;
    }
    if (stale) this.stale.add(body);
    return body;
  }

  /**
   * An object read for output (its JSON texts), with its values opened. The texts are parsed only to find the values,
   * not written again whole: each sealed value's JSON string (base64 after a prefix, which JSON never escapes) is
   * replaced in place by the value it stands for, so that a response costs little more than one of an object stored
   * in the clear.
   */
  openOutput(key: ObjectKey, item: OutputItem): OutputItem {
    const transformer = this.transformerOf(key);
    if (!transformer) return item;
    const rest = JSON.parse(item.rest) as Values;
    const sealed: SealedValue[] = [];
    for (const [member, encoding] of VALUE_MAPS[key.resource as EncryptableResource]) {
      const values = rest[member];
      if (!isPlainObject(values)) continue;
      for (const [name, value] of Object.entries(values)) {
        if (typeof value === 'string') sealed.push({ field: `${member}[${name}]`, stored: value, encoding });
      }
    }
    const opened = { ...item, rest: this.replaced(transformer, key, item.rest, sealed) };
    if (item.metadata.includes(LAST_APPLIED)) {
      const annotations = (JSON.parse(item.metadata) as { annotations?: Values }).annotations;
      const stored = annotations?.[LAST_APPLIED];
      if (typeof stored === 'string') opened.metadata = this.replaced(transformer, key, item.metadata, [{ field: LAST_APPLIED_FIELD, stored, encoding: 'utf8' }]);
    }
    return opened;
  }

  /** Whether a stored object just read was written by another provider or key than the first: rewrite it on update. */
  isStale(object: object): boolean {
    return this.stale.has(object);
  }

  /** A value sealed, and remembered as opened: this instance's next read of the object need not decrypt it. */
  private sealValue(transformer: ValueTransformer, key: ObjectKey, field: string, value: string, encoding: BufferEncoding): string {
    const where = context(key, field);
    const stored = transformer.seal(value, encoding, where);
    this.opened.set(where, { stored, value });
    return stored;
  }

  /** JSON text with each sealed value's string, in the order they appear, replaced by the opened value's. */
  private replaced(transformer: ValueTransformer, key: ObjectKey, text: string, values: SealedValue[]): string {
    const parts: string[] = [];
    let from = 0;
    for (const value of values) {
      // a sealed value is base64 after its prefix, which JSON writes as it is
      const quoted = value.stored.startsWith(ENCRYPTED) ? `"${value.stored}"` : JSON.stringify(value.stored);
      const at = text.indexOf(quoted, from);
      if (at < 0) return JSON.stringify(this.open(key, JSON.parse(text) as Values)); // not as expected: the slow way
      const { opened } = this.openValue(transformer, key, value);
      opened.json ??= value.encoding === 'base64' ? `"${opened.value}"` : JSON.stringify(opened.value);
      parts.push(text.slice(from, at), opened.json);
      from = at + quoted.length;
    }
    parts.push(text.slice(from));
    return parts.join('');
  }

  /** A stored value opened (known already, or decrypted now), and whether it was read by another provider than the first. */
  private openValue(transformer: ValueTransformer, key: ObjectKey, { field, stored, encoding }: SealedValue): { opened: OpenedValue; stale: boolean } {
    const where = context(key, field);
    const known = this.opened.get(where, stored);
    if (known !== undefined) return { opened: known, stale: false };
    try {
      const { value, stale } = transformer.open(stored, encoding, where);
      const opened = { stored, value };
      if (!stale) this.opened.set(where, opened);
      return { opened, stale };
    } catch (error) {
      if (!(error instanceof UnreadableValue)) throw error;
      const object = key.namespace ? `${key.resource} "${key.name}" in namespace "${key.namespace}"` : `${key.resource} "${key.name}"`;
      throw apiErrors.internal(`unable to decrypt ${field} of ${object}: ${error.message}`);
    }
  }
}

/** What a sealed value is bound to (aesgcm's additional data): the object's key and the value's place in it. */
const context = (key: ObjectKey, field: string) => `${key.group}/${key.resource}/${key.namespace}/${key.name}/${field}`;
