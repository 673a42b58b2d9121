import { Writer } from 'protobufjs';
import { codecs } from './envelope';
import { JsonObject } from './json-mapping';
import { messageType } from './schema';

const WATCH_EVENT = 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent';
const LENGTH_BYTES = 4;

/**
 * One event of a protobuf watch stream: a 4-byte big-endian length, then a WatchEvent (no prefix,
 * no envelope) whose object holds the whole enveloped object.
 */
export function encodeWatchFrame(type: string, object: JsonObject): Buffer {
  const writer = Writer.create().raw(Buffer.alloc(LENGTH_BYTES));
  codecs.of(messageType(WATCH_EVENT)).encode({ type, object }, writer);
  const frame = writer.finish() as Buffer;
  frame.writeUInt32BE(frame.length - LENGTH_BYTES, 0);
  return frame;
}
