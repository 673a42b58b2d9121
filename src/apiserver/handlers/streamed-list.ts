import { KubeObject } from '../../apimachinery/meta/kube-object';
import { KindDefinition, wireOf } from '../../registry/kind-definition';
import { listItemJson, outputObject, toListOutput } from '../../registry/object-output';
import { LIST_BATCH_ROWS, ListCursor } from '../../storage/objects/list-cursor';
import { ListSource } from '../codec/list-stream';
import { JsonObject } from '../codec/protobuf/json-mapping';

/** A whole list read through a cursor while its response is written: the items as OutputList writes them. */
export class StreamedList implements ListSource {
  readonly envelope: JsonObject;
  readonly itemsMember = 'items';

  constructor(
    private readonly def: KindDefinition,
    private readonly cursor: ListCursor,
    path: string,
  ) {
    this.envelope = toListOutput(def, [], cursor.resourceVersion, path);
  }

  async *batches(): AsyncGenerator<string[]> {
    for await (const rows of this.cursor.batches(LIST_BATCH_ROWS)) {
      yield rows.map((item) => listItemJson(this.def, item));
    }
  }

  /** the same items as objects (for an answer made of them, a Table's rows), a batch at a time */
  async *objectBatches(): AsyncGenerator<KubeObject[]> {
    const options = { withTypeMeta: wireOf(this.def).itemTypeMeta };
    for await (const rows of this.cursor.batches(LIST_BATCH_ROWS)) {
      yield rows.map((item) => outputObject(this.def, item, options));
    }
  }

  close(failure?: unknown): Promise<void> {
    return this.cursor.close(failure);
  }
}
