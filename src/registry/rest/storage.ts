import { KubeObject } from '../../apimachinery/meta/kube-object';
import { DecodeTarget } from '../decode-object';
import { WriteOptions } from '../store/generic-registry';

/** How a write through a path is done: the store's dry run and user, and the field manager it is recorded for. */
export interface StorageWriteOptions extends Pick<WriteOptions, 'dryRun' | 'user'> {
  manager: string;
}

/** A server-side apply: a write whose manager may take over fields other managers own (`force`). */
export interface ApplyOptions extends StorageWriteOptions {
  force: boolean;
}

/**
 * What the get, update and patch handlers read and write on one path, as upstream's rest.Getter and rest.Updater:
 * the object itself, or a view of it (its status, its Scale). The handlers know no more of a path than this.
 */
export interface Storage {
  /** the kind a body on the path is decoded as (a Scale under `{name}/scale`) */
  readonly kind: DecodeTarget;
  /** `mayBeStale`: a GET with resourceVersion=0, which a streaming standby may answer (where the path reads one object) */
  get(namespace: string | undefined, name: string, mayBeStale?: boolean): Promise<KubeObject>;
  /** what output() makes of get()'s object, as JSON text, where the path can write it without parsing the whole body */
  readJson?(namespace: string | undefined, name: string, mayBeStale?: boolean): Promise<string>;
  /** writes what `next` makes of the current object (a PUT's body, or a patch applied to it) and answers the result */
  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: StorageWriteOptions): Promise<KubeObject>;
  /** a PUT: replaces the object with `body`; the main resource of a kind that allows it creates an object that is missing */
  replace(namespace: string | undefined, name: string, body: KubeObject, options: StorageWriteOptions): Promise<{ object: KubeObject; created: boolean }>;
  /** applies a configuration (server-side apply) to the object; the main resource creates an object that is missing */
  apply(namespace: string | undefined, name: string, config: KubeObject, options: ApplyOptions): Promise<{ object: KubeObject; created: boolean }>;
  /** the object as the path answers with it; `request` names it when it has no name of its own (an export) */
  output(object: KubeObject, request: { namespace?: string; name?: string }): KubeObject;
}
