import { apiErrors } from '../../apimachinery/errors/status-error';
import { ListKey } from '../../storage/objects/object-key';

/** A continue token's content: the snapshot the pages are read at (-1: the newest, inconsistently) and the last key. */
export interface Continuation {
  resourceVersion: bigint;
  after: ListKey;
}

/** The version the apiserver writes in its tokens; a token of another server is refused as one is there. */
const TOKEN_VERSION = 'meta.k8s.io/v1';

/** The apiserver's token: base64url JSON of {v, rv, start}, where start is the key to start from (the last one + NUL). */
export function encodeContinue({ resourceVersion, after }: Continuation): string {
  const start = `${after.namespace}/${after.name}\u0000`;
  const json = `{"v":"${TOKEN_VERSION}","rv":${resourceVersion},"start":${JSON.stringify(start)}}`;
  return Buffer.from(json).toString('base64url');
}

const invalid = (reason: string) => apiErrors.badRequest(`invalid continue token: continue key is not valid${reason}`);

export function decodeContinue(token: string): Continuation {
  let content: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    content = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof content;
  } catch {
    // the parser's message quotes the undecodable text: say what is wrong instead
    throw invalid(': not base64url-encoded JSON');
  }
  if (content === null || typeof content !== 'object') throw invalid('');
  if (content.v !== TOKEN_VERSION) throw invalid(`: server does not recognize this encoded version ${JSON.stringify(content.v ?? '')}`);
  if (typeof content.rv !== 'number' || !Number.isSafeInteger(content.rv) || content.rv === 0 || content.rv < -1) {
    throw invalid(`: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  }
  const start = content.start;
  if (typeof start !== 'string' || start === '') throw invalid(`: encoded start key empty (version ${TOKEN_VERSION})`);
  const slash = start.indexOf('/');
  if (slash < 0 || !start.endsWith('\u0000') || start.indexOf('\u0000') !== start.length - 1) throw invalid(`: ${start}`);
  return {
    resourceVersion: BigInt(content.rv),
    after: { namespace: start.slice(0, slash), name: start.slice(slash + 1, -1) },
  };
}
