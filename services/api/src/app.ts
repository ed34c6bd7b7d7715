import type { Database } from '@peeks/db';
import type { Logger } from '@peeks/runtime';
import fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { healthRoutes } from './features/health/routes.ts';
import { errorEnvelope } from './plugins/error-envelope.ts';
import { RequestLog, requestIdFor, requestIdHeader } from './plugins/request-log.ts';
import { webApp } from './plugins/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
  }
}

export interface AppOptions {
  db: Kysely<Database>;
  log: Logger;
  /** The built web app to serve; left out, the server is API-only. */
  webRoot?: string;
}

/** The HTTP app, ready for routes to be added and for listen() or inject(). */
export async function buildApp(options: AppOptions) {
  const app = fastify({
    loggerInstance: options.log,
    logController: new RequestLog(),
    genReqId: requestIdFor,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', options.db);

  await app.register(requestIdHeader);
  await app.register(errorEnvelope);
  await app.register(healthRoutes);
  if (options.webRoot) await app.register(webApp, { root: options.webRoot });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
