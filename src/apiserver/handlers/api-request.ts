import { Path } from '../../registry/table/table-column';
import { RawBody } from '../codec/body-decoder';
import { ListSource } from '../codec/list-stream';
import { EventStream } from '../../watch/watch-events';
import { Negotiated } from '../codec/negotiation';
import { KindDefinition, Verb } from '../../registry/kind-definition';
import { ResourcePath } from '../request/resource-path';
import { Query } from '../../apimachinery/parameters/query';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { KubeObject } from '../../apimachinery/meta/kube-object';

/** One request for a resource, resolved to its kind; what every verb handler receives. */
export interface ApiRequest {
  def: KindDefinition;
  verb: Verb;
  path: ResourcePath;
  query: Query;
  body: RawBody;
  contentType?: string;
  /** the User-Agent header: a write without a field manager is recorded for its product name */
  userAgent?: string;
  negotiated: Negotiated;
  /** warnings for the client (`Warning` headers), which reading the body may add */
  warnings: string[];
  /** whom the request acts as (the filters authenticated and authorized it) */
  user?: UserInfo;
  /** the parts of each listed object the answer needs (a Table's rows), when not the whole object */
  projection?: readonly Path[];
  /** told the decoded request object (the audit's objectRef is completed from it) */
  observeObject?: (object: KubeObject) => void;
}

/**
 * What a handler answers: the HTTP code and the value to encode, a stream of events (a watch), or a list whose
 * items are read as the response is written (the handler has opened it; whoever writes the response closes it).
 */
export type ApiResponse = { code: number; body: unknown } | { code: 200; events: EventStream } | { code: 200; list: ListSource };

/** A verb on a resource's main path (no subresource) or on one of its subresources (`*`: any storage's). */
export interface Route {
  verb: Verb;
  subresource?: string;
}

/** A handler of one or more routes; the resource controller picks it by the verb and subresource of the request. */
export interface VerbHandler {
  readonly routes: readonly Route[];
  handle(request: ApiRequest): Promise<ApiResponse>;
}
