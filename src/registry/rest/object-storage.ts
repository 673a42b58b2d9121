import { StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { FieldManager } from '../../fieldmanager/field-manager';
import { fieldManagerOf, ManagedPath } from '../field-managers';
import { KindDefinition, PartStrategy } from '../kind-definition';
import { KindRegistry } from '../kind-registry';
import { objectJson, toOutput } from '../object-output';
import { GenericRegistry } from '../store/generic-registry';
import { ApplyOptions, Storage, StorageWriteOptions } from './storage';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The object itself: the generic store with the kind's strategy. */
export class ObjectStorage implements Storage {
  /** the subresource whose path answers with the object (its selfLink's last segment) */
  protected readonly subresource: string | undefined = undefined;

  private readonly fields: FieldManager;

  constructor(
    readonly kind: KindDefinition,
    protected readonly registry: GenericRegistry,
    kinds: KindRegistry,
    path: ManagedPath = 'object',
  ) {
    this.fields = fieldManagerOf(kind, path, kinds);
  }

  get(namespace: string | undefined, name: string, mayBeStale = false): Promise<KubeObject> {
    return this.registry.get(this.kind, namespace, name, 'object', mayBeStale);
  }

  async readJson(namespace: string | undefined, name: string, mayBeStale = false): Promise<string> {
    const item = await this.registry.get(this.kind, namespace, name, 'output', mayBeStale);
    return objectJson(this.kind, item, { withTypeMeta: true, subresource: this.subresource, compact: true });
  }

  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: StorageWriteOptions): Promise<KubeObject> {
    return this.registry.update(this.kind, namespace, name, (current) => this.prepare(next(current), current), {
      dryRun: options.dryRun,
      user: options.user,
      track: (current, object) => this.fields.update(current, object, options.manager),
    });
  }

  /**
   * Applies the configuration to the current object, or creates the object from it when there is none (and
   * applies it to the object another writer created meanwhile).
   */
  apply(namespace: string | undefined, name: string, config: KubeObject, options: ApplyOptions): Promise<{ object: KubeObject; created: boolean }> {
    const { dryRun, user, manager, force } = options;
    const applied = (current: KubeObject | undefined) => this.fields.apply(current, copyJson(config), manager, force);
    return this.updateOrCreate(
      this.createsOnApply,
      () => this.registry.update(this.kind, namespace, name, (current) => this.prepare(applied(current), current), { dryRun, user }),
      () => this.registry.create(this.kind, applied(undefined), { dryRun, user, createdByUpdate: true }),
    );
  }

  /**
   * Replaces the object with the body, or creates the object from it when there is none and the kind allows that
   * (upstream's AllowCreateOnUpdate, which takes no resourceVersion from the body for the new object).
   */
  replace(namespace: string | undefined, name: string, body: KubeObject, options: StorageWriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    const { dryRun, user, manager } = options;
    const created = () => {
      const object = copyJson(body);
      delete object.metadata.resourceVersion;
      return this.registry.create(this.kind, object, { dryRun, user, createdByUpdate: true, track: (_, next) => this.fields.update(undefined, next, manager) });
    };
    return this.updateOrCreate(!this.subresource && !!this.kind.strategy.createsOnUpdate, () => this.update(namespace, name, () => copyJson(body), options), created);
  }

  /**
   * Writes with `update`, or, when the object is missing and `creates`, with `create`; a create that another writer's
   * create got ahead of is an update of what that one made.
   */
  private async updateOrCreate(creates: boolean, update: () => Promise<KubeObject>, create: () => Promise<KubeObject>): Promise<{ object: KubeObject; created: boolean }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { object: await update(), created: false };
      } catch (error) {
        if (!creates || !(error instanceof StatusError && error.code === 404)) throw error;
      }
      try {
        return { object: await create(), created: true };
      } catch (error) {
        if (attempt > 0 || !(error instanceof StatusError && error.reason === 'AlreadyExists')) throw error;
      }
    }
  }

  output(object: KubeObject, request: { namespace?: string; name?: string }): KubeObject {
    return toOutput(this.kind, object, { withTypeMeta: true, request, subresource: this.subresource });
  }

  /** An apply to a missing object creates it. */
  protected get createsOnApply(): boolean {
    return true;
  }

  protected prepare(object: KubeObject, current: KubeObject): KubeObject {
    return this.registry.prepareUpdate(this.kind, object, current);
  }
}

/** `{name}/status`: the same store with the status strategy, which writes the status alone. */
export class StatusStorage extends ObjectStorage {
  protected override readonly subresource = 'status';

  constructor(kind: KindDefinition, registry: GenericRegistry, kinds: KindRegistry) {
    super(kind, registry, kinds, 'status');
  }

  protected override get createsOnApply(): boolean {
    return false;
  }

  protected override prepare(object: KubeObject, current: KubeObject): KubeObject {
    return this.registry.prepareStatusUpdate(this.kind, object, current);
  }
}

/** A subresource that writes one part of the object (a namespace's `finalize`), recorded as a write of the object. */
export class PartStorage extends ObjectStorage {
  constructor(
    kind: KindDefinition,
    protected override readonly subresource: string,
    private readonly part: PartStrategy,
    registry: GenericRegistry,
    kinds: KindRegistry,
  ) {
    super(kind, registry, kinds);
  }

  protected override get createsOnApply(): boolean {
    return false;
  }

  protected override prepare(object: KubeObject, current: KubeObject): KubeObject {
    return this.registry.preparePartUpdate(this.kind, this.part, object, current);
  }
}
