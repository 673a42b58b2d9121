import { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate, Negotiated } from '../codec/negotiation';
import { JsonEventSink } from '../codec/json-event-sink';
import { encodeBody } from '../codec/response-encoder';
import { EventStream } from '../codec/watch-events';
import { StatusError } from '../errors/status-error';
import { param, Query, strictBool } from '../request/query';

const PRETTY_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

/** pretty output: `?pretty=`, a pretty=1 media-type parameter, or a curl/Wget/browser User-Agent (reference §7.1). */
export function wantsPretty(request: FastifyRequest, negotiated: Negotiated): boolean {
  // no query at all when Fastify's router failed before parsing it
  const query = param((request.query ?? {}) as Query, 'pretty');
  if (query !== undefined) return strictBool(query);
  if (negotiated.pretty) return true;
  const agent = request.headers['user-agent'] ?? '';
  return PRETTY_AGENTS.some((prefix) => agent.startsWith(prefix));
}

/**
 * Writes a value in the negotiated media type. The body goes out as bytes: for a string Fastify would append
 * `; charset=utf-8` to a JSON Content-Type, which the apiserver writes bare.
 */
export function sendValue(request: FastifyRequest, reply: FastifyReply, code: number, value: unknown, negotiated: Negotiated): void {
  const { contentType, body } = encodeBody(value, negotiated.type, wantsPretty(request, negotiated));
  reply.code(code).header('content-type', contentType).send(Buffer.from(body));
}

/** The negotiated type for an error response: the client's choice when it has one we write, otherwise JSON. */
export function negotiateForError(request: FastifyRequest): Negotiated {
  try {
    return negotiate(request.headers.accept, false);
  } catch {
    return { type: 'application/json', pretty: false };
  }
}

/** Answers with a Status error, and its Retry-After header when it has one. */
export function sendStatus(request: FastifyRequest, reply: FastifyReply, error: StatusError): void {
  const retryAfter = error.details?.retryAfterSeconds;
  if (retryAfter) reply.header('retry-after', String(retryAfter));
  sendValue(request, reply, error.code, error.toStatus(), negotiateForError(request));
}

/**
 * Answers with a stream of watch events: headers at once, then one chunk per event. The JSON stream is labelled
 * plain `application/json`, as the apiserver labels it (reference §6.2).
 */
export function streamEvents(reply: FastifyReply, events: EventStream): void {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  response.flushHeaders();
  response.on('close', () => events.close());
  events.attach(new JsonEventSink(response));
}
