import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ClusterCredentials } from './cluster-credentials';

/** What a GET of `/healthz` came to: the body of a 2xx answer, or why there was none. */
export type HealthzAnswer = { body: string } | { error: string };

/**
 * A member whose `/healthz` has not answered, whole, within this long is unreachable (so that it holds the other
 * probes up no longer, even if it keeps sending a byte now and then).
 */
const PROBE_TIMEOUT_MS = 10_000;
/** `/healthz` answers `ok`: more than this is not read. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * GET `{base}/healthz` as federation's client did (a non-2xx status is an error), its certificate verified against
 * the credentials' CA (or the system's) unless the kubeconfig says to skip verification.
 */
export function getHealthz(base: URL, credentials: ClusterCredentials, signal: AbortSignal, timeoutMs = PROBE_TIMEOUT_MS): Promise<HealthzAnswer> {
  const url = new URL('/healthz', base);
  const headers: Record<string, string> = { 'user-agent': 'federation-controller-manager/cluster-controller', accept: 'application/json, */*' };
  if (credentials.authorization) headers.authorization = credentials.authorization;
  const tls = {
    ca: credentials.ca,
    cert: credentials.cert,
    key: credentials.key,
    servername: credentials.serverName,
    rejectUnauthorized: !credentials.insecureSkipTlsVerify,
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let timedOut = false;
    const failed = (error: Error) => resolve({ error: timedOut ? `no answer within ${timeoutMs} ms` : error.message });
    const answered = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolve(status >= 200 && status <= 206 ? { body } : { error: `/healthz answered ${status}` });
      });
      res.on('error', failed);
      // after 'end' this changes nothing; before it, the answer was cut off
      res.on('close', () => failed(new Error('the connection closed before the answer ended')));
    };
    // what the request refuses at once (a header value or a certificate that is not one, a scheme) is the probe's
    // failure too, as Go's client reports it from the request
    let req: ClientRequest;
    try {
      req = request(url, { method: 'GET', headers, agent: false, signal, ...(url.protocol === 'https:' ? tls : {}) }, answered);
    } catch (error) {
      return resolve({ error: (error as Error).message });
    }
    const deadline = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', failed);
    req.end();
  });
}
