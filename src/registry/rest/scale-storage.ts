import { KubeObject } from '../../apimachinery/meta/kube-object';
import { fieldManagerOf } from '../field-managers';
import { groupVersion, KindDefinition, ScaleBinding, storageKeyOf } from '../kind-definition';
import { KindRegistry } from '../kind-registry';
import { toOutput } from '../object-output';
import { ScaleRegistry } from '../scale/scale-registry';
import { ApplyOptions, Storage, StorageWriteOptions } from './storage';
import { copyJson } from '../../apimachinery/meta/json-value';

/**
 * `{name}/scale`: the object seen and resized as a Scale of the binding's version. Its managed
 * fields are the object's, recorded for the `scale` subresource.
 */
export class ScaleStorage implements Storage {
  readonly kind: KindDefinition;

  constructor(
    private readonly def: KindDefinition,
    private readonly binding: ScaleBinding,
    private readonly scales: ScaleRegistry,
    private readonly kinds: KindRegistry,
  ) {
    this.kind = binding.version.kind;
  }

  get(namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.scales.get(this.def, this.binding, namespace, name);
  }

  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: StorageWriteOptions): Promise<KubeObject> {
    const fields = this.fieldManager();
    return this.scales.update(this.def, this.binding, namespace, name, next, {
      dryRun: options.dryRun,
      user: options.user,
      track: (current, object) => fields.update(current, object, options.manager),
    });
  }

  async replace(namespace: string | undefined, name: string, body: KubeObject, options: StorageWriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    return { object: await this.update(namespace, name, () => copyJson(body), options), created: false };
  }

  /** Applies the Scale's replicas to the object: the manager owns (and conflicts on) the object's `spec.replicas`. */
  async apply(namespace: string | undefined, name: string, config: KubeObject, options: ApplyOptions): Promise<{ object: KubeObject; created: boolean }> {
    const fields = this.fieldManager();
    const target = this.recordedAs();
    const replicas = (config.spec as { replicas?: number } | undefined)?.replicas;
    const objectConfig: KubeObject = {
      apiVersion: groupVersion(target),
      kind: target.kind,
      metadata: { name, ...(namespace !== undefined && { namespace }) },
      spec: replicas === undefined ? {} : { replicas },
    };
    const next = (scale: KubeObject) => ({ ...scale, metadata: { ...scale.metadata, ...config.metadata }, spec: { ...(scale.spec as object), ...(config.spec as object) } });
    const object = await this.scales.update(this.def, this.binding, namespace, name, next, {
      dryRun: options.dryRun,
      user: options.user,
      track: (current, written) => {
        const { managedFields } = fields.apply(current, copyJson(objectConfig), options.manager, options.force).metadata;
        if (managedFields) written.metadata.managedFields = managedFields;
        else delete written.metadata.managedFields;
      },
    });
    return { object, created: false };
  }

  output(scale: KubeObject, request: { namespace?: string; name?: string }): KubeObject {
    return toOutput(this.def, scale, { withTypeMeta: true, request, subresource: 'scale', typeMeta: this.kind });
  }

  private fieldManager() {
    return fieldManagerOf(this.recordedAs(), 'scale', this.kinds);
  }

  /**
   * The kind whose managed fields a write of the Scale records: the path's own when the Scale resizes its objects
   * through the kind that stores them (apps' Deployments, in apps' version), else the resized kind (extensions' view
   * of core ReplicationControllers).
   */
  private recordedAs(): KindDefinition {
    const target = this.scales.target(this.def, this.binding);
    const [own, resized] = [storageKeyOf(this.def), storageKeyOf(target)];
    return own.group === resized.group && own.resource === resized.resource ? this.def : target;
  }
}
