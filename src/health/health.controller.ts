import { Controller, Get, Head, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from '../apimachinery/errors/status-error';
import { Query } from '../apimachinery/parameters/query';
import { HealthChecks, HealthEndpoint } from './health-checks';

const ENDPOINTS: HealthEndpoint[] = ['livez', 'readyz', 'healthz'];

const endpointOf = (request: FastifyRequest) => request.url.split(/[/?]/)[1] as HealthEndpoint;

function sendText(reply: FastifyReply, code: number, text: string): void {
  reply.code(code).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(text);
}

/**
 * /livez, /readyz and /healthz as kube-apiserver answers them: `ok`, or with `?verbose` one `[+]name ok` line a
 * check and `<endpoint> check passed`; when a check fails, 500 with every line (`[-]name failed: reason withheld`)
 * and `<endpoint> check failed`. `?exclude=name` skips a check; `/<endpoint>/<name>` runs one and gives its reason.
 */
@Controller()
export class HealthController {
  constructor(private readonly health: HealthChecks) {}

  @Get(ENDPOINTS)
  all(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.report(request, reply);
  }

  // HEAD as GET, without the body (load balancers' checks send it): the server exposes no HEAD routes by itself
  @Head(ENDPOINTS)
  allHead(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.report(request, reply);
  }

  @Get(ENDPOINTS.map((endpoint) => `${endpoint}/:check`))
  one(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('check') name: string) {
    return this.reportOne(request, reply, name);
  }

  @Head(ENDPOINTS.map((endpoint) => `${endpoint}/:check`))
  oneHead(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('check') name: string) {
    return this.reportOne(request, reply, name);
  }

  private async report(request: FastifyRequest, reply: FastifyReply) {
    const endpoint = endpointOf(request);
    const query = request.query as Query;
    const excluded = new Set([query.exclude ?? []].flat());
    const checks = this.health.endpoints[endpoint];
    const results = await this.health.run(checks.filter((c) => !excluded.has(c.name)));
    const lines = checks.map((check) => {
      if (excluded.delete(check.name)) return `[+]${check.name} excluded: ok\n`;
      const result = results.find((r) => r.name === check.name);
      return result?.failure === undefined ? `[+]${check.name} ok\n` : `[-]${check.name} failed: reason withheld\n`;
    });
    if (excluded.size > 0) {
      lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => `"${n}"`).join(',')}\n`);
    }
    if (results.some((r) => r.failure !== undefined)) {
      sendText(reply, 500, `${lines.join('')}${endpoint} check failed\n`);
    } else if (query.verbose === undefined) {
      sendText(reply, 200, 'ok');
    } else {
      sendText(reply, 200, `${lines.join('')}${endpoint} check passed\n`);
    }
  }

  private async reportOne(request: FastifyRequest, reply: FastifyReply, name: string) {
    const check = this.health.endpoints[endpointOf(request)].find((c) => c.name === name);
    if (!check) throw apiErrors.pathNotFound();
    const [result] = await this.health.run([check]);
    if (result.failure === undefined) sendText(reply, 200, 'ok');
    else sendText(reply, 500, `internal server error: ${result.failure}\n`);
  }
}
