import { request } from 'node:http';

/** One generated request, as sent on the wire: the path and query are already percent-encoded. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  body: Buffer;
  /** the server was still sending when the client stopped reading (a watch) */
  streaming: boolean;
}

/** How long a response may go on before it is taken for a stream (a watch) and cut. */
const STREAM_CUT_MS = 150;
/** A request not answered by then fails the run: the server hangs. */
const ANSWER_TIMEOUT_MS = 15_000;

const target = (r: FuzzRequest) => `${r.path}${r.query ? `?${r.query}` : ''}`;

/** Sends a request over its own connection, exactly as generated. */
export function send(base: string, r: FuzzRequest): Promise<FuzzResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) };
    const req = request({ hostname, port, method: r.method, path: target(r), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let streaming = false;
      const cut = setTimeout(() => {
        streaming = true;
        res.destroy();
      }, STREAM_CUT_MS);
      const done = () => {
        clearTimeout(cut);
        clearTimeout(answer);
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks), streaming });
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', done);
      res.on('close', done);
      res.on('error', () => undefined);
    });
    const answer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    req.on('error', (error) => {
      clearTimeout(answer);
      reject(error);
    });
    req.end(r.body);
  });
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command that replays it byte for byte (the body through printf's escapes). */
export function toCurl(base: string, r: FuzzRequest): string {
  const parts = ['curl', '-sS', '--path-as-is', '-X', shellQuote(r.method)];
  for (const [name, value] of Object.entries(r.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  let prefix = '';
  if (r.body) {
    const escaped = [...r.body].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
    prefix = `printf '%b' ${shellQuote(escaped)} | `;
    parts.push('--data-binary', '@-');
  }
  parts.push(shellQuote(`${base}${target(r)}`));
  return prefix + parts.join(' ');
}
