import { dump as dumpYaml } from 'js-yaml';
import { JSON_TYPE, ResponseType, YAML_TYPE } from './media-types';

/** A value already written as compact JSON: sent as it is, or parsed again for YAML and pretty output. */
export class EncodedJson {
  constructor(readonly text: string) {}
}

export interface EncodedBody {
  contentType: string;
  body: string;
}

/**
 * Writes a response value. JSON is compact with a trailing newline, or indented by two spaces without one when
 * pretty; YAML comes from the same JSON with its keys sorted, as the apiserver writes it.
 */
export function encodeBody(value: unknown, type: ResponseType, pretty: boolean): EncodedBody {
  if (value instanceof EncodedJson) {
    if (type === JSON_TYPE && !pretty) return { contentType: JSON_TYPE, body: `${value.text}\n` };
    value = JSON.parse(value.text);
  }
  if (type === YAML_TYPE) {
    return { contentType: YAML_TYPE, body: dumpYaml(value, { sortKeys: true, lineWidth: -1, noRefs: true }) };
  }
  return { contentType: JSON_TYPE, body: pretty ? JSON.stringify(value, null, 2) : `${JSON.stringify(value)}\n` };
}
