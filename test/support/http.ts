import { request } from 'node:https';

export interface HttpResult {
  status: number;
  headers: Headers;
  /** the body as received */
  bytes: Buffer;
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON */
  json: any;
}

/** What an HTTPS request trusts (the server's CA) and, for client-certificate authentication, presents. */
export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
}

/**
 * One real HTTP request; a plain object body is sent as JSON unless a string or Buffer is given. An https base
 * needs `tls`; each such request has a connection of its own.
 */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; tls?: ClientTls } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = options.tls ? await httpsRequest(`${base}${path}`, method, headers, body, options.tls) : await fetch(`${base}${path}`, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

/** An HTTPS request with its own connection (fetch cannot be given a CA), answered as a fetch Response. */
function httpsRequest(url: string, method: string, headers: Record<string, string>, body: string | Buffer | undefined, tls: ClientTls): Promise<Response> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: { ...headers, ...length }, agent: false, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : [value ?? '']) responseHeaders.append(name, one);
        }
        resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: responseHeaders }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
