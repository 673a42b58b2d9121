import { HttpAdapterHost } from '@nestjs/core';
import Fastify, { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { apiErrors } from '../../src/apimachinery/errors/status-error';
import { RequestInfo } from '../../src/apiserver/request/request-info';
import { UserInfo } from '../../src/apimachinery/authentication/user-info';
import { loadSettings } from '../../src/config/settings';
import { ServerMetrics } from '../../src/metrics/server-metrics';
import { MaxInFlightFilter } from '../../src/serving/filters/max-in-flight.filter';
import { ChainFilters, HandlerChain } from '../../src/serving/handler-chain';

/** Fake filters that write down, in order, what each saw: identities come from headers (`user`, `impersonate-user`). */
function fakeFilters(steps: string[], limit: Pick<ChainFilters, 'maxInFlight'> | { full: boolean }): ChainFilters {
  const user = (username: string): UserInfo => ({ username, groups: [] });
  const who = (request: FastifyRequest) => request.auth?.user.username ?? 'nobody';
  const audited = new WeakSet<FastifyRequest>();
  return {
    requestInfo: {
      filter: (request) => {
        steps.push('request info');
        const watch = request.url.includes('watch=true');
        const api = request.url.startsWith('/api');
        request.requestInfo = { verb: 'GET', apiVerb: watch ? 'watch' : 'get', api, mutating: false, longRunning: watch } as RequestInfo;
      },
    },
    requestMetrics: {
      filter: (_request, reply) => {
        steps.push('metrics');
        reply.raw.once('close', () => steps.push(`metrics ${reply.raw.statusCode}`));
      },
    },
    maxInFlight:
      'maxInFlight' in limit
        ? limit.maxInFlight
        : {
            filter: () => {
              steps.push('in-flight limit');
              if (limit.full) throw apiErrors.tooManyRequests();
            },
          },
    insecureHost: {
      filter: (request) => {
        steps.push('host');
        if (request.headers.host === 'evil.example.com') throw apiErrors.forbiddenPath('not that host');
      },
    },
    authentication: {
      filter: (request) => {
        const name = request.headers.user as string | undefined;
        steps.push(`authentication ${name ?? 'refused'}`);
        if (!name) throw apiErrors.unauthorized();
        request.auth = { user: user(name), authenticated: user(name), secure: true };
      },
    },
    audit: {
      filter: (request) => {
        steps.push(`audit as ${who(request)}`);
        audited.add(request);
      },
      beforeSend: (request, reply, payload) => {
        if (audited.has(request)) steps.push(`audit response ${reply.statusCode} ${JSON.parse(String(payload)).kind}`);
      },
    },
    impersonation: {
      filter: (request) => {
        steps.push('impersonation');
        const name = request.headers['impersonate-user'] as string | undefined;
        if (name && request.auth) request.auth = { ...request.auth, user: user(name) };
      },
    },
    authorization: {
      filter: (request) => {
        steps.push(`authorization of ${who(request)}`);
        if (who(request) === 'mallory') throw apiErrors.forbiddenPath('mallory may not');
      },
    },
    closeConnectionsOnShutdown: { beforeSend: () => undefined },
  };
}

/** A Fastify instance with the chain's hooks and one handler, as the server's routes are reached. */
async function serve(filters: ChainFilters, steps: string[], handler: () => Promise<void> = async () => undefined): Promise<FastifyInstance> {
  const fastify = Fastify();
  const adapterHost = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
  new HandlerChain(adapterHost, filters).onModuleInit();
  fastify.get('/*', async (_request: FastifyRequest, reply: FastifyReply) => {
    steps.push('handler');
    await handler();
    return reply.send({ kind: 'Answer' });
  });
  await fastify.ready();
  return fastify;
}

/** Lets the responses' `close` events (the metrics) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** One request through the chain of fake filters (their in-flight limit reached when `full`): the answer, and the steps taken. */
async function send(headers: Record<string, string>, full = false): Promise<{ response: LightMyRequestResponse; steps: string[] }> {
  const steps: string[] = [];
  const fastify = await serve(fakeFilters(steps, { full }), steps);
  const response = await fastify.inject({ url: '/api/v1/pods', headers });
  await settle();
  return { response, steps };
}

describe('the handler chain', () => {
  it('passes a request through the filters in upstream order, then to its handler', async () => {
    const { response, steps } = await send({ user: 'alice' });
    expect(response.statusCode).toBe(200);
    expect(steps).toEqual([
      'request info',
      'metrics',
      'in-flight limit',
      'host',
      'authentication alice',
      'audit as alice',
      'impersonation',
      'authorization of alice',
      'handler',
      'audit response 200 Answer',
      'metrics 200',
    ]);
  });

  it('audits an unauthenticated request as such, then answers 401 without impersonating or authorizing', async () => {
    const { response, steps } = await send({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    expect(steps).toEqual([
      'request info',
      'metrics',
      'in-flight limit',
      'host',
      'authentication refused',
      'audit as nobody',
      'audit response 401 Status',
      'metrics 401',
    ]);
  });

  it('refuses a request for a host the port does not serve with 403, audited before the answer, before authentication', async () => {
    const { response, steps } = await send({ user: 'alice', host: 'evil.example.com' });
    expect(response.statusCode).toBe(403);
    expect(steps).toEqual(['request info', 'metrics', 'in-flight limit', 'host', 'audit as nobody', 'audit response 403 Status', 'metrics 403']);
  });

  it('refuses a request beyond the in-flight limit with 429 before authentication, audit or authorization see it', async () => {
    const { response, steps } = await send({ user: 'alice' }, true);
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests' });
    expect(steps).toEqual(['request info', 'metrics', 'in-flight limit', 'metrics 429']);
  });

  it('impersonates before authorizing: the audit has the sender, authorization the impersonated user', async () => {
    const { response, steps } = await send({ user: 'alice', 'impersonate-user': 'bob' });
    expect(response.statusCode).toBe(200);
    expect(steps.slice(4, 8)).toEqual(['authentication alice', 'audit as alice', 'impersonation', 'authorization of bob']);
  });

  it('audits a request that authorization refuses, with its 403 Status', async () => {
    const { response, steps } = await send({ user: 'alice', 'impersonate-user': 'mallory' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' });
    expect(steps).toEqual([
      'request info',
      'metrics',
      'in-flight limit',
      'host',
      'authentication alice',
      'audit as alice',
      'impersonation',
      'authorization of mallory',
      'audit response 403 Status',
      'metrics 403',
    ]);
  });

  it('holds API requests to the in-flight limit; watches and other paths are not limited', async () => {
    const steps: string[] = [];
    const settings = loadSettings({ MAX_REQUESTS_INFLIGHT: '1' });
    const limit = { maxInFlight: new MaxInFlightFilter(new ServerMetrics(), settings) };
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fastify = await serve(fakeFilters(steps, limit), steps, () => held);
    const first = fastify.inject({ url: '/api/v1/pods', headers: { user: 'alice' } });
    while (!steps.includes('handler')) await settle();

    const refused = await fastify.inject({ url: '/api/v1/pods', headers: { user: 'alice' } });
    expect(refused.statusCode).toBe(429);
    expect(steps.filter((step) => step.startsWith('authentication'))).toHaveLength(1);

    release();
    const exempt = await Promise.all([
      fastify.inject({ url: '/api/v1/pods?watch=true', headers: { user: 'alice' } }),
      fastify.inject({ url: '/healthz', headers: { user: 'alice' } }),
    ]);
    expect(exempt.map((response) => response.statusCode)).toEqual([200, 200]);
    expect((await first).statusCode).toBe(200);
    await settle();
    expect((await fastify.inject({ url: '/api/v1/pods', headers: { user: 'alice' } })).statusCode).toBe(200);
  });
});
