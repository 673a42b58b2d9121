import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition, wireOf } from '../../registry/kind-definition';
import { ListPageMeta, listOutputJson, outputObject } from '../../registry/object-output';
import { ListResult } from '../../storage/objects/list-result';
import { OutputItem } from '../../storage/objects/read-form';
import { EncodedJson } from '../codec/response-encoder';

/**
 * A list read for a response: sent as JSON text built from the stored bodies (no parsing), or, for an answer made of
 * its items (a Table's rows), those items as objects, without the whole list's text being made and parsed again.
 */
export class OutputList extends EncodedJson {
  constructor(
    private readonly def: KindDefinition,
    private readonly result: ListResult<OutputItem>,
    private readonly path: string,
    private readonly page: ListPageMeta = {},
  ) {
    super(() => listOutputJson(def, result.items, result.resourceVersion, path, page));
  }

  get metadata(): Record<string, unknown> {
    return { selfLink: this.path, resourceVersion: this.result.resourceVersion, ...this.page };
  }

  items(): KubeObject[] {
    return this.result.items.map((item) => outputObject(this.def, item, { withTypeMeta: wireOf(this.def).itemTypeMeta }));
  }
}
