import { OBJECT_META_ORDER } from '../../apimachinery/meta/kube-object';
import { SqlParams } from './sql-params';

/** How a response writes each item of a kind, for PostgreSQL to write it so (see itemTextSql). */
export interface ItemShape {
  /** the start of each item's selfLink: the API root of the version served, e.g. `/apis/extensions/v1beta1` */
  apiRoot: string;
  resource: string;
  /** whether the selfLink names the item's namespace (when it has one) */
  namespaced: boolean;
  /** the item's `"kind":…,"apiVersion":…,` JSON members, where the answer writes them (empty: it does not) */
  typeMeta: string;
}

/** The characters encodeURIComponent leaves as they are; a segment of others is encoded by kube.uri_component. */
const uriSegment = (column: string) => `CASE WHEN ${column} ~ '^[A-Za-z0-9_.!~*''()-]*$' THEN ${column} ELSE kube.uri_component(${column}) END`;

/**
 * The SQL expression of an item's JSON text, from the columns of a row of `row` (namespace, name, resource_version and
 * body) and `rest`, the text of its body but kind, apiVersion and metadata: the type meta, then the metadata's members
 * in ObjectMeta's order with the selfLink and resourceVersion in their places, then the rest. Members are written as
 * jsonb writes them, with a space after each colon and comma inside a value (as the rest of a list's items already
 * are). Stored metadata holds only ObjectMeta's members (decoding drops the others), so those named are all there is.
 */
export function itemTextSql(params: SqlParams, shape: ItemShape, row: string, rest: string): string {
  const scope = shape.namespaced ? `CASE WHEN ${row}.namespace = '' THEN '' ELSE '/namespaces/' || ${uriSegment(`${row}.namespace`)} END || ` : '';
  const selfLink = `'"selfLink":"' || ${params.add(shape.apiRoot)}::text || ${scope}'/' || ${params.add(shape.resource)}::text || '/' || ${uriSegment(`${row}.name`)} || '"'`;
  const member = (key: string) => {
    if (key === 'selfLink') return selfLink;
    if (key === 'resourceVersion') return `'"resourceVersion":"' || ${row}.resource_version || '"'`;
    return `'"${key}":' || (${row}.body #> '{metadata,${key}}')::text`;
  };
  const metadata = `concat_ws(',', ${OBJECT_META_ORDER.map(member).join(', ')})`;
  return `'{' || ${params.add(shape.typeMeta)}::text || '"metadata":{' || ${metadata} || CASE WHEN ${rest} = '{}' THEN '}}' ELSE '},' || substr(${rest}, 2) END`;
}
