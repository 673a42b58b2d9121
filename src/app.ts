import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { StatusExceptionFilter } from './common/http/status-exception.filter';
import { Settings } from './config/settings';
import { withApplicationName } from './database/application-name';
import { JsonLogger } from './logging/json-logger';

/** Request bodies above this size get 413, as in later apiservers (3 MiB). */
export const BODY_LIMIT = 3 * 1024 * 1024;

/** Builds the server: NestJS on Fastify, with every request body read raw so the codecs at the edge decode it. */
export async function createApp(settings: Settings, databaseUrl: string): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT, exposeHeadRoutes: false });
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(settings, withApplicationName(databaseUrl)),
    adapter,
    { bodyParser: false, logger: new JsonLogger(settings.LOG_LEVEL) },
  );
  app.useGlobalFilters(new StatusExceptionFilter(BODY_LIMIT));
  return app;
}
