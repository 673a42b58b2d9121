import { apiErrors } from '../../apimachinery/errors/status-error';
import { bareType, BODY_TYPES, JSON_TYPE, PROTOBUF_TYPE, YAML_TYPE } from './media-types';
import { decodeEnveloped } from './protobuf/envelope';
import { unstorableReason } from '../../apimachinery/meta/storable';
import { loadYamlDocument } from './yaml-document';

/** The request body, untouched, as the content-type parser received it. */
export type RawBody = Buffer | undefined;

function snippet(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const text = body.subarray(0, 30).toString('utf8');
  return body.length > 30 ? `${text} ...` : text;
}

const unrecognized = (expected: string, bytes: Buffer, reason: string) =>
  apiErrors.badRequest(`the object provided is unrecognized (must be of type ${expected}): ${reason} (${snippet(bytes)})`);

/**
 * Reads a JSON, YAML or protobuf request body into plain JSON values that PostgreSQL can store: the same document
 * whatever the encoding. `expected` names the kind the endpoint takes (for error messages), and with
 * `expectedApiVersion` the message of a protobuf envelope that leaves them out; anything unreadable is a 400, a
 * Content-Type that is unknown or not among the resource's `accepted` types a 415.
 */
export function decodeDocument(
  body: RawBody,
  contentType: string | undefined,
  expected: string,
  expectedApiVersion?: string,
  accepted: readonly string[] = BODY_TYPES,
): unknown {
  const bytes = body ?? Buffer.alloc(0);
  const type = bareType(contentType);
  if (type !== '' && !accepted.includes(type)) throw apiErrors.unsupportedMediaType(accepted);
  const document = parseDocument(bytes, contentType, expected, expectedApiVersion);
  const unstorable = unstorableReason(document);
  if (unstorable) throw unrecognized(expected, bytes, unstorable);
  return document;
}

function parseDocument(bytes: Buffer, contentType: string | undefined, expected: string, expectedApiVersion?: string): unknown {
  const type = bareType(contentType);
  const jsonParseError = (reason: string) => unrecognized(expected, bytes, `couldn't get version/kind; json parse error: ${reason}`);
  if (type === '' || type === JSON_TYPE) {
    if (bytes.length === 0) throw jsonParseError('unexpected end of JSON input');
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw jsonParseError((error as Error).message);
    }
  }
  if (type === YAML_TYPE) {
    if (bytes.length === 0) throw jsonParseError('unexpected end of JSON input');
    try {
      return loadYamlDocument(bytes.toString('utf8'));
    } catch (error) {
      throw jsonParseError(`error converting YAML to JSON: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  if (type === PROTOBUF_TYPE) {
    try {
      return decodeEnveloped(bytes, { kind: expected, apiVersion: expectedApiVersion });
    } catch (error) {
      throw unrecognized(expected, bytes, (error as Error).message);
    }
  }
  throw apiErrors.unsupportedMediaType(BODY_TYPES);
}
