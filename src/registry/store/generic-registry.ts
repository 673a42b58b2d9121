import { Injectable } from '@nestjs/common';
import { FieldError } from '../../apimachinery/errors/field-error';
import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject, nowTimestamp } from '../../apimachinery/meta/kube-object';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/meta/object-meta-validation';
import { KindDefinition, PartStrategy, storageKeyOf, storedShapeOf } from '../kind-definition';
import { DeleteOptions } from './delete-options';
import { DryRunnableStore } from './dry-runnable-store';
import { finalizersAfterDelete } from './deletion-policy';
import { ObjectStore } from '../../storage/objects/object-store';
import { ObjectKey } from '../../storage/objects/object-key';
import { ListQuery } from '../../storage/objects/list-query';
import { ListResult } from '../../storage/objects/list-result';
import { ListCursor } from '../../storage/objects/list-cursor';
import { FormItem, ReadForm } from '../../storage/objects/read-form';
import { generateName, prepareForCreate, prepareForPartUpdate, prepareForStatusUpdate, prepareForUpdate, sameAsStored } from './object-preparation';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { WriteAdmissions } from './write-admission';
import { omitEmpty } from '../../apimachinery/schema/omit-empty';
import { Converted, convertsByCall, objectItem, openServedList } from './served-version';
import { withConversions } from '../conversion-needed';
import { copyJson } from '../../apimachinery/meta/json-value';

/** Builds the next state of an object from its current state; it may throw a StatusError to refuse. */
export type Transform = (current: KubeObject) => KubeObject | Promise<KubeObject>;

export type DeleteResult =
  | { removed: true; object: KubeObject }
  | { removed: false; object: KubeObject /* marked for deletion, waiting for finalizers */ };

/**
 * How a create or update is to be done: `dryRun` answers as the write would, writing nothing; `user` is who asks for
 * it (none for the server's own writes), whom the write admissions check; `track` keeps the object's managed fields
 * (server-side apply's field manager), given the object as prepared for the write and the stored one it replaces
 * (none for a create); `createdByUpdate` marks a create asked for as an update (a PUT or an apply of a missing
 * object), which the user must also be allowed to create.
 */
export interface WriteOptions {
  dryRun?: boolean;
  user?: UserInfo;
  track?: (current: KubeObject | undefined, next: KubeObject) => void;
  createdByUpdate?: boolean;
}

const GENERATE_NAME_ATTEMPTS = 8;

/** A stored object of a row converted by a call that is stored in an earlier storage version: a write moves it. */
const inOtherStorageVersion = (def: KindDefinition, stored: KubeObject) => convertsByCall(def) && stored.apiVersion !== def.storageConversion.storedIn;

const keyOf = (def: KindDefinition, namespace: string | undefined, name: string): ObjectKey => ({
  ...storageKeyOf(def),
  namespace: namespace ?? '',
  name,
});

/**
 * The one store behind every kind (the apiserver's generic registry store): the kind's strategy prepares and
 * validates, this class enforces identity, preconditions and compare-and-swap writes.
 */
@Injectable()
export class GenericRegistry {
  constructor(
    private readonly store: ObjectStore,
    private readonly writes: DryRunnableStore,
    private readonly admissions: WriteAdmissions,
  ) {}

  /**
   * The object, parsed (the default) or for a response as JSON text (see ObjectStore's read forms); `mayBeStale`
   * for a GET with resourceVersion=0, which a streaming standby may answer.
   */
  async get<F extends ReadForm = 'object'>(def: KindDefinition, namespace: string | undefined, name: string, form?: F, mayBeStale = false): Promise<FormItem[F]> {
    const key = keyOf(def, namespace, name);
    const object = convertsByCall(def) ? await this.readConverted(def, key, form, mayBeStale) : await this.store.get(key, form, mayBeStale);
    if (!object) throw apiErrors.notFound(def, name);
    return object;
  }

  /** The kind's objects the query selects (or a page of them), parsed (the default) or for a response. */
  list<F extends ReadForm = 'object'>(def: KindDefinition, query: ListQuery = {}, form?: F): Promise<ListResult<FormItem[F]>> {
    return convertsByCall(def) ? this.listConverted(def, query, form) : this.store.list(storageKeyOf(def), query, form);
  }

  /** A whole list for a response, read through a cursor as the response is written (the caller closes it). */
  openList(def: KindDefinition, query: ListQuery): Promise<ListCursor> {
    return openServedList(this.store, def, query);
  }

  /** For a row whose objects a call converts: the stored object, converted, in the read form asked for. */
  private async readConverted<F extends ReadForm>(def: Converted, key: ObjectKey, form?: F, mayBeStale = false): Promise<FormItem[F] | undefined> {
    const stored = await this.store.get(key, 'object', mayBeStale);
    const object = stored && (await this.served(def, stored));
    return (object && form === 'output' ? objectItem(object) : object) as FormItem[F] | undefined;
  }

  /** For a row whose objects a call converts: the whole bodies, converted together (one call for the list). */
  private async listConverted<F extends ReadForm>(def: Converted, query: ListQuery, form?: F): Promise<ListResult<FormItem[F]>> {
    const listed = await this.store.list(storageKeyOf(def), { ...query, projection: undefined });
    const items = await def.storageConversion.fromStored(listed.items);
    return { ...listed, items: (form === 'output' ? items.map(objectItem) : items) as FormItem[F][] };
  }

  async create(def: KindDefinition, object: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    if (object.metadata.resourceVersion) {
      throw apiErrors.badRequest('resourceVersion should not be set on objects to be created');
    }
    def.strategy.applyDefaults(object);
    await this.admissions.check(def, object, undefined, options.user, { createdByUpdate: options.createdByUpdate === true });
    prepareForCreate(def, object);
    omitEmpty(storedShapeOf(def), object);
    const generated = !object.metadata.name && !!object.metadata.generateName && def.strategy.supportsGenerateName;
    if (!def.strategy.supportsGenerateName) delete object.metadata.generateName;
    options.track?.(undefined, object);
    const attempts = generated ? GENERATE_NAME_ATTEMPTS : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (generated) object.metadata.name = generateName(object.metadata.generateName as string);
      def.strategy.canonicalize?.(object);
      this.validate(def, object, [...validateObjectMeta(def, object.metadata), ...def.strategy.validate(object)]);
      const stored = convertsByCall(def) ? await def.storageConversion.toStored(object) : object;
      const created = await this.writes.create(storageKeyOf(def), stored, !!options.dryRun);
      if (created) return convertsByCall(def) ? this.served(def, created) : created;
      if (!generated) {
        const existing = await this.store.get(keyOf(def, object.metadata.namespace, object.metadata.name as string));
        throw apiErrors.alreadyExists(def, object.metadata.name as string, !!existing?.metadata.deletionTimestamp);
      }
    }
    throw apiErrors.serverTimeout('POST', def);
  }

  /**
   * Replaces an object with what `transform` makes of its current state, retrying on the fresh state when another
   * writer got in between (a transform that checks a resourceVersion precondition then fails with 409).
   * An object marked for deletion whose last finalizer the update removes is deleted instead.
   */
  update(
    def: KindDefinition,
    namespace: string | undefined,
    name: string,
    transform: Transform,
    options: WriteOptions = {},
  ): Promise<KubeObject> {
    const dryRun = !!options.dryRun;
    const key = keyOf(def, namespace, name);
    const write = async (current: KubeObject, stored: KubeObject): Promise<KubeObject | undefined> => {
      const next = omitEmpty(storedShapeOf(def), await transform(copyJson(current)));
      options.track?.(current, next);
      if (sameAsStored(next, current) && !this.store.needsRewrite(stored) && !inOtherStorageVersion(def, stored)) return current;
      await this.admissions.check(def, next, current, options.user);
      const version = current.metadata.resourceVersion as string;
      if (current.metadata.deletionTimestamp && !next.metadata.finalizers?.length && !def.strategy.holdsRemoval?.(next)) {
        return (await this.writes.delete(key, version, dryRun)) ? next : undefined;
      }
      return this.writeUpdate(def, key, version, next, dryRun);
    };
    // the field manager of a row converted by a call needs its conversions made first, and runs again with them
    return this.guaranteedUpdate(def, key, (current) => current, (current, stored) =>
      convertsByCall(def) ? withConversions(() => write(current, stored)) : write(current, stored),
    );
  }

  /** The update preparation and validation of a write to the main resource (PUT, and the result of a PATCH). */
  prepareUpdate(def: KindDefinition, object: KubeObject, current: KubeObject): KubeObject {
    const prepare = () => {
      omitEmpty(storedShapeOf(def), object); // before the generation compares the spec
      prepareForUpdate(def, object, current);
    };
    return this.prepareWrite(def, object, current, prepare, () => def.strategy.validateUpdate(object, current));
  }

  /** The same for a write to `/status` (PUT, and the result of a PATCH): only the status changes. */
  prepareStatusUpdate(def: KindDefinition, object: KubeObject, current: KubeObject): KubeObject {
    const status = def.strategy.status;
    if (!status) throw apiErrors.methodNotAllowed();
    return this.prepareWrite(def, object, current, () => prepareForStatusUpdate(def, object, current), () => status.validate(object, current));
  }

  /** The same for a write through a subresource that writes one part of the object (a namespace's `finalize`). */
  preparePartUpdate(def: KindDefinition, part: PartStrategy, object: KubeObject, current: KubeObject): KubeObject {
    const prepare = () => {
      omitEmpty(storedShapeOf(def), object);
      prepareForPartUpdate(part, object, current);
    };
    return this.prepareWrite(def, object, current, prepare, () => part.validateUpdate(object, current));
  }

  /** What every update does around the preparation and checks of what it writes (`prepare`, `errors`). */
  private prepareWrite(def: KindDefinition, object: KubeObject, current: KubeObject, prepare: () => void, errors: () => FieldError[]): KubeObject {
    this.checkPreconditions(def, object, current);
    def.strategy.applyDefaults(object);
    prepare();
    def.strategy.canonicalize?.(object);
    this.validate(def, object, [...validateObjectMetaUpdate(def, object.metadata, current.metadata), ...errors()]);
    object.metadata.resourceVersion = current.metadata.resourceVersion;
    return object;
  }

  /** The resourceVersion and uid a body carries are preconditions of its write (409 when stale). */
  private checkPreconditions(def: KindDefinition, object: KubeObject, current: KubeObject): void {
    const wanted = object.metadata.resourceVersion;
    if (wanted && wanted !== current.metadata.resourceVersion) throw apiErrors.staleResourceVersion(def, current.metadata.name as string);
    if (object.metadata.uid && object.metadata.uid !== current.metadata.uid) {
      throw apiErrors.conflict(
        def,
        current.metadata.name as string,
        `Precondition failed: UID in precondition: ${object.metadata.uid}, UID in object meta: ${current.metadata.uid}`,
      );
    }
  }

  /**
   * Deletes an object as the apiserver's generic store does: removed at once when no finalizer is left once the
   * options are applied; otherwise marked with a deletionTimestamp (the first one is kept) and the finalizers, and
   * left for whoever owns them (the garbage collector for `orphan` and `foregroundDeletion`); an update that empties
   * them removes it.
   */
  delete(def: KindDefinition, namespace: string | undefined, name: string, options: DeleteOptions): Promise<DeleteResult> {
    const key = keyOf(def, namespace, name);
    const unchanged = (current: KubeObject): DeleteResult => ({ removed: false, object: current });
    return this.guaranteedUpdate(def, key, unchanged, async (current) => {
      this.admissions.checkDelete(def, current, options.user);
      const uid = options.preconditions?.uid;
      if (uid && uid !== current.metadata.uid) {
        throw new StatusError(
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${def.kind}.${def.group} "${name}": the UID in the precondition (${uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`,
          { name, group: def.group, kind: def.kind },
        );
      }
      const version = current.metadata.resourceVersion as string;
      const dryRun = !!options.dryRun;
      const finalizers = finalizersAfterDelete(def, current, options);
      if (finalizers.length === 0 && !def.strategy.holdsRemoval?.(current)) {
        return (await this.writes.delete(key, version, dryRun)) ? { removed: true, object: current } : undefined;
      }
      const marked = copyJson(current);
      if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
      else delete marked.metadata.finalizers; // held by the kind alone (holdsRemoval)
      marked.metadata.deletionGracePeriodSeconds = 0;
      if (!current.metadata.deletionTimestamp) {
        marked.metadata.deletionTimestamp = nowTimestamp();
        if (marked.metadata.generation) marked.metadata.generation += 1;
        def.strategy.prepareForDeletion?.(marked);
      }
      if (sameAsStored(marked, current)) return { removed: false, object: current };
      const written = await this.writeUpdate(def, key, version, marked, dryRun);
      return written && { removed: false, object: written };
    });
  }

  /** Deletes every listed object with the same options; objects gone meanwhile are skipped. */
  async deleteCollection(def: KindDefinition, query: ListQuery, options: DeleteOptions): Promise<ListResult> {
    const listed = await this.list(def, query);
    for (const item of listed.items) {
      try {
        await this.delete(def, item.metadata.namespace || undefined, item.metadata.name as string, options);
      } catch (error) {
        if (!(error instanceof StatusError && error.code === 404)) throw error;
      }
    }
    return listed;
  }

  /**
   * Runs `write` on the current state of an object until it lands (the apiserver's GuaranteedUpdate): `write` answers
   * undefined when its compare-and-swap lost to another writer, and runs again on the new state. A write that failed
   * while the resourceVersion did not move lost to nobody: the database skipped it as identical, and `unchanged`
   * makes the answer from the state as it stands. Every retry follows someone else's progress, so this ends.
   */
  private async guaranteedUpdate<T>(
    def: KindDefinition,
    key: ObjectKey,
    unchanged: (current: KubeObject) => T,
    write: (current: KubeObject, stored: KubeObject) => Promise<T | undefined>,
  ): Promise<T> {
    let lostOn: string | undefined;
    for (;;) {
      const stored = await this.store.get(key);
      if (!stored) throw apiErrors.notFound(def, key.name);
      const current = convertsByCall(def) ? await this.served(def, stored) : stored;
      if (current.metadata.resourceVersion === lostOn) return unchanged(current);
      const result = await write(current, stored);
      if (result !== undefined) return result;
      lostOn = current.metadata.resourceVersion;
    }
  }

  /**
   * Writes an update of an object in the form it is stored in, answering with what was written in the row's version
   * (undefined when the write lost, as ObjectStore's update).
   */
  private writeUpdate(def: KindDefinition, key: ObjectKey, version: string, object: KubeObject, dryRun: boolean): Promise<KubeObject | undefined> {
    return convertsByCall(def) ? this.writeConverted(def, key, version, object, dryRun) : this.writes.update(key, version, object, dryRun);
  }

  private async writeConverted(def: Converted, key: ObjectKey, version: string, object: KubeObject, dryRun: boolean): Promise<KubeObject | undefined> {
    const written = await this.writes.update(key, version, await def.storageConversion.toStored(object), dryRun);
    return written && this.served(def, written);
  }

  /** A stored object in the version of a row whose objects a call converts. */
  private async served(def: Converted, stored: KubeObject): Promise<KubeObject> {
    return (await def.storageConversion.fromStored([stored]))[0];
  }

  private validate(def: KindDefinition, object: KubeObject, errors: FieldError[]): void {
    if (errors.length > 0) throw apiErrors.invalid(def, object.metadata.name ?? object.metadata.generateName ?? '', errors);
  }
}
