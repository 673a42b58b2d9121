import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Reader } from 'protobufjs';
import { codecs } from '../../src/apiserver/codec/protobuf/envelope';
import { messageType } from '../../src/apiserver/codec/protobuf/schema';

/** The Kubernetes 1.7 message definitions, written from its wire format: what the server's messages must match. */
export const PROTO_DIR = join(__dirname, '..', 'fixtures', 'proto-1.7');

/** Messages of later releases' groups (networking.k8s.io/v1, policy/v1beta1), with upstream's names and numbers. */
export const LATER_PROTO_DIR = join(__dirname, '..', 'fixtures', 'proto-later');

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const PREFIX = Buffer.from('k8s\0', 'latin1');

/** protoc's text form of `bytes` read as `type`, with the 1.7 and later definitions (protoc never sees our codec). */
export function protocDecode(type: string, bytes: Uint8Array): string {
  const files = [PROTO_DIR, LATER_PROTO_DIR].flatMap((dir) => readdirSync(dir).filter((file) => file.endsWith('.proto')));
  return execFileSync('protoc', ['-I', PROTO_DIR, '-I', LATER_PROTO_DIR, `--decode=${type}`, ...files], { input: bytes }).toString('utf8');
}

/** The parts of an enveloped body, read with protobufjs' bare reader: typeMeta (field 1) and raw (field 2). */
export function unwrap(body: Uint8Array): { typeMeta: string; raw: Buffer } {
  if (!PREFIX.equals(Buffer.from(body.subarray(0, 4)))) throw new Error('no k8s\\0 prefix');
  const reader = Reader.create(Buffer.from(body.subarray(4)));
  let typeMeta = '';
  let raw = Buffer.alloc(0);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x0a) typeMeta = protocDecode('k8s.io.apimachinery.pkg.runtime.TypeMeta', reader.bytes());
    else if (tag === 0x12) raw = Buffer.from(reader.bytes());
    else reader.skipType(tag & 7);
  }
  return { typeMeta, raw };
}

/** A JSON value without its null members: protobuf has no null, so both forms leave them out. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** The type and JSON object of one protobuf watch frame's WatchEvent. */
export function decodeWatchEvent(frame: Buffer): { type: string; object: any } {
  const reader = Reader.create(frame);
  return codecs.of(messageType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent')).decode(reader, reader.len) as {
    type: string;
    object: unknown;
  };
}
