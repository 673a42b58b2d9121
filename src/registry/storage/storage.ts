import { KubeObject } from '../../apimachinery/meta/kube-object';
import { DecodeTarget } from '../decode-object';
import { WriteOptions } from '../store/generic-registry';

/**
 * What the get, update and patch handlers read and write on one path, as upstream's rest.Getter and rest.Updater:
 * the object itself, or a view of it (its status, its Scale). The handlers know no more of a path than this.
 */
export interface Storage {
  /** the kind a body on the path is decoded as (a Scale under `{name}/scale`) */
  readonly kind: DecodeTarget;
  get(namespace: string | undefined, name: string): Promise<KubeObject>;
  /** writes what `next` makes of the current object (a PUT's body, or a patch applied to it) and answers the result */
  update(namespace: string | undefined, name: string, next: (current: KubeObject) => KubeObject, options: WriteOptions): Promise<KubeObject>;
  /** the object as the path answers with it; `request` names it when it has no name of its own (an export) */
  output(object: KubeObject, request: { namespace?: string; name?: string }): KubeObject;
}
