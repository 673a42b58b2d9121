import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition } from '../kind-definition';
import { toOutput } from '../object-output';
import { GenericRegistry, WriteOptions } from '../store/generic-registry';
import { Storage } from './storage';

/** The object itself: the generic store with the kind's strategy. */
export class ObjectStorage implements Storage {
  constructor(
    readonly kind: KindDefinition,
    protected readonly registry: GenericRegistry,
  ) {}

  get(namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.registry.get(this.kind, namespace, name);
  }

  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: WriteOptions): Promise<KubeObject> {
    return this.registry.update(this.kind, namespace, name, (current) => this.prepare(next(current), current), options);
  }

  output(object: KubeObject, request: { namespace?: string; name?: string }): KubeObject {
    return toOutput(this.kind, object, { withTypeMeta: true, request });
  }

  protected prepare(object: KubeObject, current: KubeObject): KubeObject {
    return this.registry.prepareUpdate(this.kind, object, current);
  }
}

/** `{name}/status` (reference §11.1): the same store with the status strategy, which writes the status alone. */
export class StatusStorage extends ObjectStorage {
  override output(object: KubeObject, request: { namespace?: string; name?: string }): KubeObject {
    return toOutput(this.kind, object, { withTypeMeta: true, request, subresource: 'status' });
  }

  protected override prepare(object: KubeObject, current: KubeObject): KubeObject {
    return this.registry.prepareStatusUpdate(this.kind, object, current);
  }
}
