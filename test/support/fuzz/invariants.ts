import { load } from 'js-yaml';
import { decodeEnveloped } from '../../../src/apiserver/codec/protobuf/envelope';
import { FuzzRequest, FuzzResponse } from './fuzz-request';

/** The Status an error response carries, in JSON, YAML or protobuf; undefined when it carries none. */
function statusOf(response: FuzzResponse): Record<string, unknown> | undefined {
  try {
    if (response.contentType.startsWith('application/vnd.kubernetes.protobuf')) return decodeEnveloped(response.body);
    if (response.contentType.startsWith('application/json')) return JSON.parse(response.body.toString('utf8'));
    if (response.contentType.startsWith('application/yaml')) return load(response.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return undefined;
}

export const isDryRun = (r: FuzzRequest) => r.query.split('&').includes('dryRun=All');

/**
 * What must hold of every answer: no 5xx, and an error is a `Status` whose `code` is the HTTP status (a HEAD has no
 * body to carry one). Returns why the answer breaks them, or undefined.
 */
export function answerProblem(request: FuzzRequest, response: FuzzResponse): string | undefined {
  const status = statusOf(response);
  // the apiserver's own 504 for a read at a resourceVersion the server has not reached, after waiting for it
  if (response.status === 504 && status?.reason === 'Timeout' && /Too large resource version/.test(String(status.message))) return undefined;
  if (response.status >= 500) return `answered ${response.status}: ${response.body.toString('utf8').slice(0, 500)}`;
  if (response.status < 400 || request.method === 'HEAD') return undefined;
  if (status?.kind !== 'Status' || status.code !== response.status) {
    return `answered ${response.status} (${response.contentType}) without a Status of that code: ${response.body.toString('utf8').slice(0, 300)}`;
  }
  return undefined;
}

/** Whether the request may have written: a success that is not a dry run. */
export const mayWrite = (request: FuzzRequest, response: FuzzResponse) => response.status < 400 && !isDryRun(request);
