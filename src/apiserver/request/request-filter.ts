import { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One step of the handler chain every request passes before its handler (`src/serving/handler-chain.ts` lists them
 * in order): it puts what it learns on the request, or refuses the request by throwing a StatusError, which the
 * chain answers as a Status. A filter that needs to act when the response ends listens for its `close`.
 */
export interface RequestFilter {
  filter(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
}

/** A step that also sees each response, its body encoded, just before it is sent. */
export interface ResponseFilter {
  beforeSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): void;
}
