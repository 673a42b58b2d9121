import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StatusError } from '../apimachinery/errors/status-error';
import { sendStatus } from '../apiserver/http/reply';
import { RequestFilter, ResponseFilter } from '../apiserver/request/request-filter';

/** The filters of the chain, by what they do (ServerChainFilters gathers the server's from their modules). */
export interface ChainFilters {
  requestInfo: RequestFilter;
  requestMetrics: RequestFilter;
  maxInFlight: RequestFilter;
  insecureHost: RequestFilter;
  authentication: RequestFilter;
  audit: RequestFilter & ResponseFilter;
  impersonation: RequestFilter;
  authorization: RequestFilter;
  closeConnectionsOnShutdown: ResponseFilter;
}

export const CHAIN_FILTERS = Symbol('CHAIN_FILTERS');

interface ChainLink {
  filter: RequestFilter;
  /** runs before a refusal of `filter` is answered */
  onRefusal?: RequestFilter;
}

/** What the filters put on the request, declared so that every request object has one shape. */
const REQUEST_FIELDS = ['requestInfo', 'auth', 'audit'];

/**
 * The filters every request passes before its handler, on both ports, in upstream's order (the apiserver's
 * DefaultBuildHandlerChain). The first that refuses a request ends it: the chain answers its StatusError as a
 * Status, and the filters after it never see the request. Each filter puts what it learns on the request; handlers
 * never look at identity themselves.
 */
@Injectable()
export class HandlerChain implements OnModuleInit {
  private readonly links: readonly ChainLink[];
  private readonly responseFilters: readonly ResponseFilter[];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CHAIN_FILTERS) filters: ChainFilters,
  ) {
    this.links = [
      // what the request is about (verb, resource, namespace, name), which every later filter reads
      { filter: filters.requestInfo },
      // counts and logs the request when it ends, whatever answers it: so before any filter that may refuse
      { filter: filters.requestMetrics },
      // 429 beyond the limits, before authentication: a refused request costs little and is not audited
      { filter: filters.maxInFlight },
      // on the insecure port, only loopback hosts (against DNS rebinding); audited as a refused authentication is
      { filter: filters.insecureHost, onRefusal: filters.audit },
      // who sent it; a refused authentication is audited before its 401 is answered, as upstream does
      { filter: filters.authentication, onRefusal: filters.audit },
      // the RequestReceived event, and the later stages when the response starts and ends
      { filter: filters.audit },
      // whom it acts as, when it asks to act as someone else and may
      { filter: filters.impersonation },
      // whether that user may do it
      { filter: filters.authorization },
    ];
    this.responseFilters = [filters.closeConnectionsOnShutdown, filters.audit];
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const field of REQUEST_FIELDS) fastify.decorateRequest(field, undefined);
    fastify.addHook('onRequest', (request, reply) => this.run(request, reply));
    fastify.addHook('onSend', async (request, reply, payload) => {
      for (const responseFilter of this.responseFilters) responseFilter.beforeSend(request, reply, payload);
      return payload;
    });
  }

  /** Runs the filters in order; resolves with the reply when one refused the request (Fastify's early answer). */
  private async run(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    for (const link of this.links) {
      try {
        await link.filter.filter(request, reply);
      } catch (refusal) {
        if (link.onRefusal) await link.onRefusal.filter(request, reply);
        if (!(refusal instanceof StatusError)) throw refusal;
        sendStatus(request, reply, refusal);
        return reply;
      }
    }
    return undefined;
  }
}
