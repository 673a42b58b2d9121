import { constants } from 'node:buffer';
import { Agent, request } from 'node:https';

/** The conversion webhook client's timeout in the apiextensions apiserver (its webhook clients' default). */
export const CONVERSION_WEBHOOK_TIMEOUT_MS = 30_000;

/**
 * The most of a webhook's answer that is read (Go's REST client reads it whole): a review's answer carries the objects
 * sent, so it may be some times the request's size, but never more than a string holds, and a webhook that answers
 * more is cut off rather than allowed to exhaust the server's memory.
 */
export const responseLimit = (requestBytes: number) => Math.min(constants.MAX_STRING_LENGTH, Math.max(64 * 1024 * 1024, 4 * requestBytes));

/**
 * The connections to one webhook: kept open between calls (a watch converts event after event), closed after 90 s
 * unused as Go's transport closes idle ones, and at most 32 at once, so that many watchers converting together queue
 * rather than open a connection each.
 */
export const webhookConnections = () => new Agent({ keepAlive: true, timeout: 90_000, maxSockets: 32 });

/** Where a webhook is called and whom its serving certificate must be signed by. */
export interface WebhookEndpoint {
  /** the URL called, with the `timeout` parameter Go's client adds */
  url: string;
  /** PEM certificates of the CAs to trust; the system roots when none */
  ca?: string[];
  /** why the webhook cannot be called at all (a service this server cannot reach) */
  unreachable?: string;
}

/** What a body that is not JSON, or a status that is not 2xx, is reported as (Go's REST client's words). */
function responseError(status: number, text: string): string {
  if (status < 200 || status > 299) {
    const body = text.trim().slice(0, 256);
    return body
      ? `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`
      : `the server responded with the status code ${status} but did not return more information`;
  }
  return `couldn't decode the response: ${text.trim() ? 'invalid JSON' : 'empty body'}`;
}

/**
 * POSTs `body` as JSON over HTTPS through `connections` and answers the JSON the webhook sends back; fails with Go's
 * client's wording (`Post "<url>": <cause>`) when the call fails, within `timeoutMs` at the latest.
 */
export function postJson(endpoint: WebhookEndpoint, connections: Agent, body: unknown, timeoutMs = CONVERSION_WEBHOOK_TIMEOUT_MS): Promise<unknown> {
  if (endpoint.unreachable) return Promise.reject(new Error(`Post ${JSON.stringify(endpoint.url)}: ${endpoint.unreachable}`));
  const signal = AbortSignal.timeout(timeoutMs);
  return post(endpoint, connections, Buffer.from(JSON.stringify(body)), signal);
}

function post(endpoint: WebhookEndpoint, connections: Agent, payload: Buffer, signal: AbortSignal, retried = false): Promise<unknown> {
  const failed = (cause: string) => new Error(`Post ${JSON.stringify(endpoint.url)}: ${cause}`);
  return new Promise((resolve, reject) => {
    const call = request(endpoint.url, {
      method: 'POST',
      agent: connections,
      ...(endpoint.ca && { ca: endpoint.ca }),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': payload.length },
      signal,
    });
    call.on('error', (error: NodeJS.ErrnoException) => {
      // a kept connection the webhook closed as it was reused: a conversion is safe to send again, once
      if (call.reusedSocket && !retried && error.code === 'ECONNRESET') return void post(endpoint, connections, payload, signal, true).then(resolve, reject);
      reject(failed(error.name === 'AbortError' || error.name === 'TimeoutError' ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : error.message));
    });
    call.on('response', (response) => {
      const limit = responseLimit(payload.length);
      const chunks: Buffer[] = [];
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length <= limit) return void chunks.push(chunk);
        call.destroy();
        reject(failed(`the response body is larger than ${limit} bytes`));
      });
      response.on('error', (error: Error) => reject(failed(error.message)));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        let text = '';
        try {
          text = Buffer.concat(chunks).toString('utf8');
          if (status < 200 || status > 299) return reject(new Error(responseError(status, text)));
          resolve(JSON.parse(text));
        } catch {
          reject(new Error(responseError(status, text)));
        }
      });
    });
    call.end(payload);
  });
}
