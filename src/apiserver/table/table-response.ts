import { KubeObject } from '../../apimachinery/meta/kube-object';
import { ApiResponse } from '../handlers/api-request';
import { OutputList } from '../handlers/output-list';
import { StreamedList } from '../handlers/streamed-list';
import { StreamedTable } from './streamed-table';
import { tableEvents } from './table-events';
import { TableConvertor } from './table-convertor';

/**
 * A handler's answer as a Table: a list's items as rows (as they are read, for a streamed list), an object as one row,
 * a watch's objects as Tables.
 */
export function tableResponse(convertor: TableConvertor, response: ApiResponse): ApiResponse {
  if ('events' in response) return { code: 200, events: tableEvents(response.events, convertor) };
  if ('list' in response) {
    if (!(response.list instanceof StreamedList)) throw new Error('a streamed Table is made of a list read through a cursor');
    return { code: 200, list: new StreamedTable(response.list, convertor) };
  }
  const body = response.body;
  if (body instanceof OutputList) return { code: response.code, body: convertor.list(body.items(), body.metadata) };
  return { code: response.code, body: convertor.object(body as KubeObject) };
}
