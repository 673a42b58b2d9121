import { apiErrors } from '../../apimachinery/errors/status-error';
import { JSON_TYPE, PROTOBUF_TYPE, RESPONSE_TYPES, ResponseType, WATCH_RESPONSE_TYPES, WATCH_TYPES } from './media-types';

export interface Negotiated {
  type: ResponseType;
  /** a `pretty=1` parameter on the chosen entry */
  pretty: boolean;
  /** the meta.k8s.io Table version the entry asks the objects to be converted to (`as=Table;v=v1;g=meta.k8s.io`) */
  table?: 'v1' | 'v1beta1';
}

const TABLE_VERSIONS = ['v1', 'v1beta1'];

/** The Table version of an `as=Table` entry this server can write (JSON or YAML: a Table has no protobuf form). */
function tableVersion(entry: AcceptEntry, type: ResponseType): Negotiated['table'] {
  const { as, g, v } = entry.params;
  if (as !== 'Table' || g !== 'meta.k8s.io' || !TABLE_VERSIONS.includes(v) || type === PROTOBUF_TYPE) return undefined;
  return v as Negotiated['table'];
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

function matchType(entry: AcceptEntry, offered: readonly ResponseType[]): ResponseType | undefined {
  if (entry.type === '*' && entry.subtype === '*') return offered[0];
  if (entry.type !== 'application') return undefined;
  if (entry.subtype === '*') return offered[0];
  return offered.find((t) => t === `application/${entry.subtype}`);
}

/**
 * Chooses the response type from an Accept header the way apiservers after 1.7 do:
 * entries are tried by q-value and specificity, and an entry this server cannot honour (a conversion it does not
 * make, a Table where the verb has none, or a stream type that cannot stream) is skipped rather than failing the
 * request. `tables` says whether the request's objects may be answered as a Table (get, list and watch); `offered`
 * are the types the resource is served in (a kind may offer fewer, as ThirdPartyResource data offers JSON alone).
 */
export function negotiate(accept: string | undefined, forWatch: boolean, tables = false, offered: readonly ResponseType[] = RESPONSE_TYPES): Negotiated {
  if (!accept || accept.trim() === '') return { type: JSON_TYPE, pretty: false };
  for (const entry of parseAccept(accept)) {
    const type = matchType(entry, offered);
    if (!type) continue;
    if (forWatch && !WATCH_TYPES.includes(type)) continue;
    if (entry.params.sv !== undefined && entry.params.sv !== 'v1') continue;
    const pretty = entry.params.pretty === '1';
    if (entry.params.as === undefined) return { type, pretty };
    const table = tables ? tableVersion(entry, type) : undefined;
    if (table) return { type, pretty, table };
  }
  throw apiErrors.notAcceptable(
    forWatch ? WATCH_RESPONSE_TYPES.filter((t) => offered.some((o) => t.startsWith(`${o};`))) : offered,
  );
}
