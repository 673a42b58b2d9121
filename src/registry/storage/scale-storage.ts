import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition, ScaleBinding } from '../kind-definition';
import { toOutput } from '../object-output';
import { ScaleRegistry } from '../scale/scale-registry';
import { WriteOptions } from '../store/generic-registry';
import { Storage } from './storage';

/** `{name}/scale` (reference §11.2): the object seen and resized as a Scale of the binding's version. */
export class ScaleStorage implements Storage {
  readonly kind: KindDefinition;

  constructor(
    private readonly def: KindDefinition,
    private readonly binding: ScaleBinding,
    private readonly scales: ScaleRegistry,
  ) {
    this.kind = binding.version.kind;
  }

  get(namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.scales.get(this.def, this.binding, namespace, name);
  }

  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: WriteOptions): Promise<KubeObject> {
    return this.scales.update(this.def, this.binding, namespace, name, next, options);
  }

  output(scale: KubeObject, request: { namespace?: string; name?: string }): KubeObject {
    return toOutput(this.def, scale, { withTypeMeta: true, request, subresource: 'scale', typeMeta: this.kind });
  }
}
