import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module';
import { StatusExceptionFilter } from './apiserver/http/status-exception.filter';
import { Settings } from './config/settings';
import { withApplicationName } from './storage/database/application-name';
import { JsonLogger } from './logging/json-logger';
import { readEncryptionConfiguration } from './storage/encryption/encryption-configuration';

/** Request bodies above this size get 413, as in later apiservers (3 MiB). */
export const BODY_LIMIT = 3 * 1024 * 1024;

/** The request line and headers may take this many bytes, as in the apiserver (Go's http.DefaultMaxHeaderBytes). */
const MAX_HEADER_BYTES = 1024 * 1024;

/** Builds the server: NestJS on Fastify, with every request body read raw so the codecs at the edge decode it. */
export async function createApp(settings: Settings, databaseUrl: string): Promise<NestFastifyApplication> {
  // read before the modules are made, so that a bad file stops the start with its own message
  const encryption = readEncryptionConfiguration(settings.ENCRYPTION_PROVIDER_CONFIG);
  const statusFilter = new StatusExceptionFilter(BODY_LIMIT);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    // Go's default MaxHeaderBytes (Node's own 16 KiB answers a long request line with a bare 431)
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    exposeHeadRoutes: false,
    // errors Fastify's router raises before any route runs (e.g. a malformed %-escape in the path)
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => statusFilter.send(error, request, reply),
  });
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(settings, withApplicationName(databaseUrl), encryption),
    adapter,
    { bodyParser: false, logger: new JsonLogger(settings.LOG_LEVEL) },
  );
  app.useGlobalFilters(statusFilter);
  return app;
}
