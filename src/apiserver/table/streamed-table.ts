import { KubeObject } from '../../apimachinery/meta/kube-object';
import { ListSource } from '../codec/list-stream';
import { JsonObject } from '../codec/protobuf/json-mapping';
import { TableConvertor } from './table-convertor';

/**
 * The Table of a list whose items are read while the response is written: its column definitions first, then a row
 * made of each item as the item arrives, so that a Table holds about one batch of rows too, as the list does.
 */
export class StreamedTable implements ListSource {
  readonly envelope: JsonObject;
  readonly itemsMember = 'rows';

  constructor(
    private readonly list: ListSource,
    private readonly convertor: TableConvertor,
  ) {
    this.envelope = convertor.empty(list.envelope.metadata as JsonObject);
  }

  async *batches(): AsyncGenerator<string[]> {
    const row = this.convertor.rows();
    for await (const batch of this.list.batches()) yield batch.map((item) => JSON.stringify(row(JSON.parse(item) as KubeObject)));
  }

  close(failure?: unknown): Promise<void> {
    return this.list.close(failure);
  }
}
