import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ServerMetrics } from '../metrics/server-metrics';

/** `/metrics` in the Prometheus text format. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: ServerMetrics) {}

  @Get('metrics')
  async scrape(@Res() reply: FastifyReply) {
    const text = await this.metrics.registry.metrics();
    reply.code(200).header('content-type', this.metrics.registry.contentType).send(text);
  }
}
