import { dump as dumpYaml } from 'js-yaml';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { JSON_TYPE, PROTOBUF_TYPE, ResponseType, YAML_TYPE } from './media-types';
import { encodeEnveloped, NoMessageError } from './protobuf/envelope';
import { JsonObject } from './protobuf/json-mapping';
import { MappingError } from './protobuf/mapping-error';

/**
 * A value already written as JSON (made when first asked for): sent as it is, or parsed again for the other media
 * types and pretty output. An object is compact; a list's items keep the spaces of PostgreSQL's jsonb text.
 */
export class EncodedJson {
  private made?: string;

  constructor(private readonly make: () => string) {}

  get text(): string {
    return (this.made ??= this.make());
  }
}

export interface EncodedBody {
  contentType: string;
  /** bytes, so that the HTTP layer sends the media type as is (it would append a charset to a string) */
  body: Buffer;
}

/**
 * The Status error for an object protobuf cannot carry: a kind without a message is 406 (JSON and YAML remain), as
 * for the apiserver's custom resources; a stored value that does not fit its message is a 500.
 */
export function protobufFailure(error: unknown): unknown {
  if (error instanceof NoMessageError) return apiErrors.notAcceptable([JSON_TYPE, YAML_TYPE]);
  if (error instanceof MappingError) return apiErrors.internal(`the object cannot be written as protobuf: ${error.message}`);
  return error;
}

function encodeProtobuf(value: unknown): Buffer {
  try {
    return encodeEnveloped(value as JsonObject);
  } catch (error) {
    throw protobufFailure(error);
  }
}

/** How YAML is written: keys sorted, lines never folded, repeated values written again (no anchors). */
export const YAML_OPTIONS = { sortKeys: true, lineWidth: -1, noRefs: true };

/**
 * Writes a response value. JSON is compact with a trailing newline, or indented by two spaces without one when
 * pretty; YAML is that JSON converted, with its keys sorted, as the apiserver writes it (the round trip through JSON
 * also hands js-yaml the only objects it accepts: plain ones of this realm, not, e.g., structuredClone's under jest's
 * vm sandbox); protobuf is enveloped (the `k8s` prefix and a `runtime.Unknown`) and never pretty.
 */
export function encodeBody(value: unknown, type: ResponseType, pretty: boolean): EncodedBody {
  if (value instanceof EncodedJson) {
    if (type === JSON_TYPE && !pretty) return { contentType: JSON_TYPE, body: Buffer.from(`${value.text}\n`) };
    value = JSON.parse(value.text);
  }
  if (type === PROTOBUF_TYPE) return { contentType: PROTOBUF_TYPE, body: encodeProtobuf(value) };
  if (type === YAML_TYPE) {
    const plain = JSON.parse(JSON.stringify(value));
    return { contentType: YAML_TYPE, body: Buffer.from(dumpYaml(plain, YAML_OPTIONS)) };
  }
  return { contentType: JSON_TYPE, body: Buffer.from(pretty ? JSON.stringify(value, null, 2) : `${JSON.stringify(value)}\n`) };
}
