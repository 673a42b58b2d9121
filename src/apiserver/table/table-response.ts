import { KubeObject } from '../../apimachinery/meta/kube-object';
import { EncodedJson } from '../codec/response-encoder';
import { ApiResponse } from '../handlers/api-request';
import { tableEvents } from './table-events';
import { TableConvertor } from './table-convertor';

/** A handler's answer as a Table: a list's items as rows, an object as one row, a watch's objects as Tables. */
export function tableResponse(convertor: TableConvertor, response: ApiResponse): ApiResponse {
  if ('events' in response) return { code: 200, events: tableEvents(response.events, convertor) };
  const body = (response.body instanceof EncodedJson ? JSON.parse(response.body.text) : response.body) as KubeObject & { items?: KubeObject[]; metadata: Record<string, unknown> };
  if (Array.isArray(body.items)) return { code: response.code, body: convertor.list(body.items, body.metadata) };
  return { code: response.code, body: convertor.object(body) };
}
