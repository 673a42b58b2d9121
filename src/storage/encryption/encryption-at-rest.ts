import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { isPlainObject, KubeObject } from '../../apimachinery/meta/kube-object';
import { ObjectKey, StorageKey } from '../objects/object-key';
import { OutputItem } from '../objects/read-form';
import type { EncryptableResource, ResourceTransformers } from './encryption-configuration';
import { IDENTITY, UnreadableValue, ValueTransformer } from './value-transformer';

/** Injection token of the transformers the server's EncryptionConfiguration gives each resource. */
export const RESOURCE_TRANSFORMERS = Symbol('RESOURCE_TRANSFORMERS');

/** The members of each encryptable resource whose values (not keys) are stored encrypted. */
const VALUE_MAPS: Readonly<Record<EncryptableResource, readonly string[]>> = {
  secrets: ['data'],
  configmaps: ['data', 'binaryData'],
};

/** kubectl's copy of the object it applied, values and all, which is encrypted too. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Values = Record<string, unknown>;

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
    for (const member of VALUE_MAPS[key.resource as EncryptableResource]) {
      const values = sealed[member];
      if (!isPlainObject(values)) continue;
      sealed[member] = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? transformer.seal(value, context(where, `${member}[${name}]`)) : value]),
      );
    }
    const annotations = object.metadata.annotations;
    if (annotations?.[LAST_APPLIED] !== undefined) {
      const lastApplied = transformer.seal(annotations[LAST_APPLIED], context(where, `metadata.annotations[${LAST_APPLIED}]`));
      sealed.metadata = { ...object.metadata, annotations: { ...annotations, [LAST_APPLIED]: lastApplied } };
    }
    return sealed as KubeObject;
  }

  /** A body as read (parsed), its values opened in place; a stored object is marked stale when it needs rewriting. */
  open<T extends Values>(key: ObjectKey, body: T): T {
    const transformer = this.transformerOf(key);
    if (!transformer || !isPlainObject(body)) return body;
    let stale = false;
    const openIn = (values: unknown, member: string) => {
      if (!isPlainObject(values)) return;
      for (const [name, value] of Object.entries(values)) {
        if (typeof value !== 'string') continue;
        const opened = this.openValue(transformer, key, `${member}[${name}]`, value);
        values[name] = opened.value;
        stale ||= opened.stale;
      }
    };
    for (const member of VALUE_MAPS[key.resource as EncryptableResource]) openIn(body[member], member);
    const metadata = body.metadata;
    if (isPlainObject(metadata) && isPlainObject(metadata.annotations) && typeof metadata.annotations[LAST_APPLIED] === 'string') {
      const opened = this.openValue(transformer, key, `metadata.annotations[${LAST_APPLIED}]`, metadata.annotations[LAST_APPLIED]);
      metadata.annotations[LAST_APPLIED] = opened.value;
      stale ||= opened.stale;
    }
    if (stale) this.stale.add(body);
    return body;
  }

  /** An object read for output (its JSON texts), with its values opened. */
  openOutput(key: ObjectKey, item: OutputItem): OutputItem {
    if (!this.transformerOf(key)) return item;
    const rest = this.open(key, JSON.parse(item.rest) as Values);
    const opened = { ...item, rest: JSON.stringify(rest) };
    if (item.metadata.includes(LAST_APPLIED)) opened.metadata = JSON.stringify(this.open(key, { metadata: JSON.parse(item.metadata) as Values }).metadata);
    return opened;
  }

  /** Whether a stored object just read was written by another provider or key than the first: rewrite it on update. */
  isStale(object: object): boolean {
    return this.stale.has(object);
  }

  private openValue(transformer: ValueTransformer, key: ObjectKey, field: string, stored: string): { value: string; stale: boolean } {
    try {
      return transformer.open(stored, context(key, field));
    } catch (error) {
      if (!(error instanceof UnreadableValue)) throw error;
      const object = key.namespace ? `${key.resource} "${key.name}" in namespace "${key.namespace}"` : `${key.resource} "${key.name}"`;
      throw apiErrors.internal(`unable to decrypt ${field} of ${object}: ${error.message}`);
    }
  }
}

/** What a sealed value is bound to (aesgcm's additional data): the object's key and the value's place in it. */
const context = (key: ObjectKey, field: string) => `${key.group}/${key.resource}/${key.namespace}/${key.name}/${field}`;
