import { ListSource } from '../codec/list-stream';
import { StreamedList } from '../handlers/streamed-list';
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
    private readonly list: StreamedList,
    private readonly convertor: TableConvertor,
  ) {
    this.envelope = convertor.empty(list.envelope.metadata as JsonObject);
  }

  async *batches(): AsyncGenerator<string[]> {
    const row = this.convertor.rows();
    for await (const objects of this.list.objectBatches()) yield objects.map((object) => JSON.stringify(row(object)));
  }

  close(failure?: unknown): Promise<void> {
    return this.list.close(failure);
  }
}
