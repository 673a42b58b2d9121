import { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate, Negotiated } from '../codec/negotiation';
import { StreamEventSink, WATCH_FORMATS, WatchFormat } from '../codec/event-sink';
import { encodeBody } from '../codec/response-encoder';
import { ListSource, listStream } from '../codec/list-stream';
import { EventStream } from '../../watch/watch-events';
import { StatusError } from '../../apimachinery/errors/status-error';
import { param, Query, strictBool } from '../../apimachinery/parameters/query';

const PRETTY_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

/** pretty output: `?pretty=`, a pretty=1 media-type parameter, or a curl/Wget/browser User-Agent (as upstream). */
export function wantsPretty(request: FastifyRequest, negotiated: Negotiated): boolean {
  // no query at all when Fastify's router failed before parsing it
  const query = param((request.query ?? {}) as Query, 'pretty');
  if (query !== undefined) return strictBool(query);
  if (negotiated.pretty) return true;
  const agent = request.headers['user-agent'] ?? '';
  return PRETTY_AGENTS.some((prefix) => agent.startsWith(prefix));
}

/** The Content-Type of an answer: its media type, and the Table it was converted to (not an error's Status). */
function labelled(contentType: string, code: number, negotiated: Negotiated): string {
  return negotiated.table && code < 300 ? `${contentType};as=Table;v=${negotiated.table};g=meta.k8s.io` : contentType;
}

/** Writes a value in the negotiated media type. */
export function sendValue(request: FastifyRequest, reply: FastifyReply, code: number, value: unknown, negotiated: Negotiated): void {
  const { contentType, body } = encodeBody(value, negotiated.type, wantsPretty(request, negotiated));
  reply.code(code).header('content-type', labelled(contentType, code, negotiated)).send(body);
}

/** Writes a list as its items are read (see listStream); the list is closed however the writing ends. */
export async function sendList(request: FastifyRequest, reply: FastifyReply, list: ListSource, negotiated: Negotiated): Promise<void> {
  let pretty: boolean;
  try {
    pretty = wantsPretty(request, negotiated);
  } catch (error) {
    await list.close(error);
    throw error;
  }
  const { contentType, body } = await listStream(list, negotiated.type, pretty);
  reply.code(200).header('content-type', labelled(contentType, 200, negotiated)).send(body);
}

/**
 * The negotiated type for an error response: the client's choice when it has one we write, otherwise JSON. A failed
 * negotiation (406) is always answered in JSON, even when another type would do for a non-watch.
 */
export function negotiateForError(request: FastifyRequest, code: number): Negotiated {
  const json: Negotiated = { type: 'application/json', pretty: false };
  if (code === 406) return json;
  try {
    return negotiate(request.headers.accept, false);
  } catch {
    return json;
  }
}

/** Answers with a Status error, and its Retry-After header when it has one. */
export function sendStatus(request: FastifyRequest, reply: FastifyReply, error: StatusError): void {
  const retryAfter = error.details?.retryAfterSeconds;
  if (retryAfter) reply.header('retry-after', String(retryAfter));
  sendValue(request, reply, error.code, error.toStatus(), negotiateForError(request, error.code));
}

/** Answers with a stream of watch events in the negotiated format: headers at once, then one chunk per event. */
export function streamEvents(reply: FastifyReply, events: EventStream, negotiated: Negotiated): void {
  const format = WATCH_FORMATS[negotiated.type] as WatchFormat; // negotiation offers watches only these types
  reply.hijack();
  const response = reply.raw;
  // no length: HTTP/1.1 sends it chunked (HTTP/2 forbids naming transfer-encoding)
  response.writeHead(200, { 'content-type': format.contentType });
  response.flushHeaders();
  response.on('close', () => events.close());
  events.attach(new StreamEventSink(response, format));
}
