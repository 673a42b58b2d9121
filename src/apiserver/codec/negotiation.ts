import { apiErrors } from '../../apimachinery/errors/status-error';
import { JSON_TYPE, RESPONSE_TYPES, ResponseType, WATCH_RESPONSE_TYPES, WATCH_TYPES } from './media-types';

export interface Negotiated {
  type: ResponseType;
  /** a `pretty=1` parameter on the chosen entry */
  pretty: boolean;
}

interface AcceptEntry {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  index: number;
}

function parseAccept(header: string): AcceptEntry[] {
  const entries: AcceptEntry[] = [];
  header.split(',').forEach((raw, index) => {
    const [range, ...paramParts] = raw.split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) return;
    const params: Record<string, string> = {};
    for (const part of paramParts) {
      const eq = part.indexOf('=');
      if (eq > 0) params[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim();
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    if (Number.isNaN(q) || q <= 0) return;
    entries.push({ type, subtype, params, q, index });
  });
  const specificity = (e: AcceptEntry) => (e.type === '*' ? 0 : e.subtype === '*' ? 1 : 2);
  return entries.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.index - b.index);
}

function matchType(entry: AcceptEntry): ResponseType | undefined {
  if (entry.type === '*' && entry.subtype === '*') return JSON_TYPE;
  if (entry.type !== 'application') return undefined;
  if (entry.subtype === '*') return JSON_TYPE;
  return RESPONSE_TYPES.find((t) => t === `application/${entry.subtype}`);
}

/**
 * Chooses the response type from an Accept header the way later apiservers do (reference §14.1, Recommended):
 * entries are tried by q-value and specificity, and an entry this server cannot honour (a conversion such as
 * `as=Table`, or a stream type that cannot stream) is skipped rather than failing the request.
 */
export function negotiate(accept: string | undefined, forWatch: boolean): Negotiated {
  if (!accept || accept.trim() === '') return { type: JSON_TYPE, pretty: false };
  for (const entry of parseAccept(accept)) {
    const type = matchType(entry);
    if (!type) continue;
    if (entry.params.as !== undefined) continue;
    if (forWatch && !WATCH_TYPES.includes(type)) continue;
    if (entry.params.sv !== undefined && entry.params.sv !== 'v1') continue;
    return { type, pretty: entry.params.pretty === '1' };
  }
  throw apiErrors.notAcceptable(forWatch ? WATCH_RESPONSE_TYPES : RESPONSE_TYPES);
}
