import { Injectable } from '@nestjs/common';
import { fieldErrors } from '../../apimachinery/errors/field-error';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { validateObjectMeta } from '../../apimachinery/meta/object-meta-validation';
import { groupVersion, KindDefinition, ScaleBinding } from '../kind-definition';
import { KindRegistry } from '../kind-registry';
import { GenericRegistry, WriteOptions } from '../store/generic-registry';

interface Scaled {
  spec?: { replicas?: number };
  status?: { replicas?: number };
}

/**
 * The `scale` subresource (reference §11.2): a Scale view of a kind's objects. A write changes the object's
 * `spec.replicas` through the object's normal update, so its validation, generation and preconditions apply.
 */
@Injectable()
export class ScaleRegistry {
  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  async get(def: KindDefinition, binding: ScaleBinding, namespace: string | undefined, name: string): Promise<KubeObject> {
    const target = this.target(def, binding);
    const object = await this.scaled(def, binding, name, () => this.registry.get(target, namespace, name));
    return this.toScale(binding, target, object);
  }

  /**
   * Replaces the Scale with what `next` makes of the current one (a PUT's body, or a patch applied to it) and
   * writes the new replica count, with the Scale's resourceVersion as the precondition; answers the new Scale.
   */
  async update(
    def: KindDefinition,
    binding: ScaleBinding,
    namespace: string | undefined,
    name: string,
    next: (current: KubeObject) => KubeObject,
    options: WriteOptions = {},
  ): Promise<KubeObject> {
    const target = this.target(def, binding);
    const updated = await this.scaled(def, binding, name, () =>
      this.registry.update(target, namespace, name, (current) => {
        const scale = next(this.toScale(binding, target, current));
        this.validate(binding, scale);
        const object = structuredClone(current) as KubeObject & Scaled;
        object.spec = { ...object.spec, replicas: (scale as Scaled).spec?.replicas ?? 0 };
        object.metadata.resourceVersion = scale.metadata.resourceVersion;
        return this.writeErrors(def, binding, name, () => this.registry.prepareUpdate(target, object, current));
      }, options),
    );
    return this.toScale(binding, target, updated);
  }

  /** The Scale of an object: its identity, desired and observed replicas, and pod selector. */
  private toScale(binding: ScaleBinding, target: KindDefinition, object: KubeObject): KubeObject {
    const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
    const { spec, status } = object as Scaled;
    const replicas = spec?.replicas ?? 0;
    return {
      kind: binding.version.kind.kind,
      apiVersion: groupVersion(binding.version.kind),
      metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
      spec: replicas === 0 ? {} : { replicas },
      status: binding.version.status(status?.replicas ?? 0, target.strategy.podSelector?.(object)),
    };
  }

  private validate(binding: ScaleBinding, scale: KubeObject): void {
    const errors = validateObjectMeta(binding.version.kind, scale.metadata);
    const replicas = (scale as Scaled).spec?.replicas ?? 0;
    if (replicas < 0) errors.push(fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
    if (errors.length > 0) throw apiErrors.invalid(binding.version.kind, scale.metadata.name ?? '', errors);
  }

  /** A missing object is a missing Scale: 404 on `<resource>/scale.<scale group>`. */
  private async scaled<T>(def: KindDefinition, binding: ScaleBinding, name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) throw apiErrors.notFound(this.names(def, binding), name);
      throw error;
    }
  }

  /** extensions' ReplicationController view answers every failed write of the RC with 409 on itself. */
  private writeErrors<T>(def: KindDefinition, binding: ScaleBinding, name: string, write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (!binding.writeErrorsAsConflict || !(error instanceof StatusError)) throw error;
      throw apiErrors.conflict({ ...this.names(def, binding), kind: 'Scale' }, name, error.message);
    }
  }

  private names(def: KindDefinition, binding: ScaleBinding) {
    return { group: binding.version.kind.group, resource: `${def.resource}/scale` };
  }

  /** The kind whose objects the Scale resizes (another kind for a view such as extensions' ReplicationController). */
  target(def: KindDefinition, binding: ScaleBinding): KindDefinition {
    if (!binding.target) return def;
    const { group, version, resource } = binding.target;
    const target = this.kinds.find(group, version, resource);
    if (!target) throw apiErrors.pathNotFound();
    return target;
  }
}
