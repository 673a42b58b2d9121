import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { ObjectKey, StorageKey } from '../../storage/objects/object-key';
import { ObjectStore } from '../../storage/objects/object-store';

/**
 * The one switch of `dryRun=All` (the apiserver's DryRunnableStorage): every write takes a `dryRun` flag, and a dry
 * write reads the current row and answers what the real write would, writing nothing. Everything above it
 * (defaults, validation, preconditions, finalizers) runs as for a real write.
 */
@Injectable()
export class DryRunnableStore {
  constructor(private readonly store: ObjectStore) {}

  /** Undefined when an object of that name exists. A dry create draws no resourceVersion: the answer has none. */
  async create(key: StorageKey, object: KubeObject, dryRun: boolean): Promise<KubeObject | undefined> {
    if (!dryRun) return this.store.create(key, object);
    const { namespace = '', name } = object.metadata;
    if (await this.store.get({ ...key, namespace, name: name as string })) return undefined;
    const { resourceVersion: _rv, ...metadata } = object.metadata;
    return { ...object, metadata };
  }

  /** Undefined when the object no longer has `expectedVersion`; a dry update answers with the version it had. */
  async update(key: ObjectKey, expectedVersion: string, object: KubeObject, dryRun: boolean): Promise<KubeObject | undefined> {
    if (!dryRun) return this.store.update(key, expectedVersion, object);
    if (!(await this.stillAt(key, expectedVersion))) return undefined;
    return { ...object, metadata: { ...object.metadata, resourceVersion: expectedVersion } };
  }

  /** False when the object no longer has `expectedVersion`. */
  async delete(key: ObjectKey, expectedVersion: string, dryRun: boolean): Promise<boolean> {
    if (!dryRun) return this.store.delete(key, expectedVersion);
    return this.stillAt(key, expectedVersion);
  }

  private async stillAt(key: ObjectKey, expectedVersion: string): Promise<boolean> {
    return (await this.store.get(key))?.metadata.resourceVersion === expectedVersion;
  }
}
