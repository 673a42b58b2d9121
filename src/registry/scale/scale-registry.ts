import { Injectable } from '@nestjs/common';
import { fieldErrors } from '../../apimachinery/errors/field-error';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { validateObjectMeta } from '../../apimachinery/meta/object-meta-validation';
import { groupVersion, KindDefinition, ReplicaPaths, ScaleBinding } from '../kind-definition';
import { KindRegistry } from '../kind-registry';
import { GenericRegistry, WriteOptions } from '../store/generic-registry';
import { copyJson } from '../../apimachinery/meta/json-value';

const DEFAULT_PATHS = { spec: ['spec', 'replicas'], status: ['status', 'replicas'] };

function read(object: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((value, field) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined), object);
}

/** Sets the value at `path`, making the objects on the way. */
function write(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((at, field) => {
    const next = at[field];
    return (at[field] = next !== null && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {}) as Record<string, unknown>;
  }, object);
  parent[path[path.length - 1]] = value;
}

const count = (value: unknown) => (typeof value === 'number' ? value : 0);

/**
 * The `scale` subresource: a Scale view of a kind's objects. A write changes the object's
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
        const object = copyJson(current);
        write(object, (binding.paths ?? DEFAULT_PATHS).spec, count(read(scale, ['spec', 'replicas'])));
        object.metadata.resourceVersion = scale.metadata.resourceVersion;
        return this.writeErrors(def, binding, name, () => this.registry.prepareUpdate(target, object, current));
      }, options),
    );
    return this.toScale(binding, target, updated);
  }

  /** The Scale of an object: its identity, desired and observed replicas, and pod selector. */
  private toScale(binding: ScaleBinding, target: KindDefinition, object: KubeObject): KubeObject {
    const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
    const paths = binding.paths ?? DEFAULT_PATHS;
    const replicas = count(read(object, paths.spec));
    const selector = binding.paths ? this.selectorText(object, binding.paths) : target.strategy.podSelector?.(object);
    return {
      kind: binding.version.kind.kind,
      apiVersion: groupVersion(binding.version.kind),
      metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
      spec: replicas === 0 ? {} : { replicas },
      status: binding.version.status(count(read(object, paths.status)), selector),
    };
  }

  /** The selector text a declared path holds; none when the path is not declared or holds no string. */
  private selectorText(object: KubeObject, paths: ReplicaPaths): string | undefined {
    const selector = paths.selector && read(object, paths.selector);
    return typeof selector === 'string' ? selector : undefined;
  }

  private validate(binding: ScaleBinding, scale: KubeObject): void {
    const errors = validateObjectMeta(binding.version.kind, scale.metadata);
    const replicas = count(read(scale, ['spec', 'replicas']));
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
