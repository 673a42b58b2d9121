import { ClientRequest, IncomingHttpHeaders, request } from 'node:http';
import { request as httpsRequest, RequestOptions } from 'node:https';
import { performance } from 'node:perf_hooks';
import { PROTOBUF_TYPE } from '../../src/apiserver/codec/media-types';

/**
 * Called with each record of a watch body, a JSON line as text or a protobuf frame's WatchEvent message as bytes, and
 * performance.now() when the chunk that completed it arrived.
 */
export type RecordListener = (record: string | Buffer, at: number) => void;

/** Takes the complete lines of `pending`; returns what is left. */
function takeLines(pending: string, take: (line: string) => void): string {
  let start = 0;
  let newline: number;
  while ((newline = pending.indexOf('\n', start)) >= 0) {
    take(pending.slice(start, newline));
    start = newline + 1;
  }
  return pending.slice(start);
}

/** Takes the complete frames of `pending` (a 4-byte big-endian length, then the WatchEvent); returns what is left. */
function takeFrames(pending: Buffer, take: (message: Buffer) => void): Buffer {
  while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
    const length = pending.readUInt32BE(0);
    take(pending.subarray(4, 4 + length));
    pending = pending.subarray(4 + length);
  }
  return pending;
}

/**
 * One watch request over HTTP or HTTPS (as the URL says), its body cut into records as it arrives: JSON lines, or
 * with a protobuf content type the WatchEvent message of each frame. `open` resolves once the response's headers are
 * in, whatever its status; `ended` turns true when the stream ends, breaks, or is closed.
 */
export class WatchStream {
  status = 0;
  headers: IncomingHttpHeaders = {};
  ended = false;
  private request?: ClientRequest;

  private constructor(private readonly onEnd: () => void) {}

  /** `options` are the request's: headers, an agent, the TLS files of an https URL. */
  static open(url: string, options: RequestOptions, onRecord: RecordListener, onEnd: () => void = () => undefined): Promise<WatchStream> {
    const stream = new WatchStream(onEnd);
    return new Promise((resolve, reject) => {
      const send = url.startsWith('https:') ? httpsRequest : request;
      stream.request = send(url, options, (response) => {
        stream.status = response.statusCode ?? 0;
        stream.headers = response.headers;
        let at = 0;
        const take = (record: string | Buffer) => onRecord(record, at);
        if (String(response.headers['content-type']).startsWith(PROTOBUF_TYPE)) {
          let pending: Buffer = Buffer.alloc(0);
          response.on('data', (chunk: Buffer) => {
            at = performance.now();
            pending = takeFrames(pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk, take);
          });
        } else {
          let pending = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            at = performance.now();
            pending = takeLines(pending + chunk, take);
          });
        }
        // 'close' also comes when the connection breaks without an end (the server killed)
        for (const event of ['end', 'close']) response.on(event, () => stream.finish());
        response.on('error', () => undefined);
        resolve(stream);
      });
      stream.request.on('error', reject); // once the response has come, the stream's 'close' tells
      stream.request.end();
    });
  }

  close(): void {
    this.ended = true;
    this.request?.destroy();
  }

  private finish(): void {
    this.ended = true;
    this.onEnd();
  }
}
