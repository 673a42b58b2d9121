import { dump as dumpYaml } from 'js-yaml';
import { JSON_TYPE, ResponseType, YAML_TYPE } from './media-types';

export interface EncodedBody {
  contentType: string;
  body: string;
}

/**
 * Writes a response value. JSON is compact with a trailing newline, or indented by two spaces without one when
 * pretty; YAML is that JSON converted, with its keys sorted, as the apiserver writes it. The round trip through JSON
 * also hands js-yaml the only objects it accepts: plain ones of this realm (not, e.g., structuredClone's under jest's
 * vm sandbox, or class instances).
 */
export function encodeBody(value: unknown, type: ResponseType, pretty: boolean): EncodedBody {
  if (type === YAML_TYPE) {
    const plain = JSON.parse(JSON.stringify(value));
    return { contentType: YAML_TYPE, body: dumpYaml(plain, { sortKeys: true, lineWidth: -1, noRefs: true }) };
  }
  return { contentType: JSON_TYPE, body: pretty ? JSON.stringify(value, null, 2) : `${JSON.stringify(value)}\n` };
}
