import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from './sessions.ts';

/**
 * The OpenAPI document at GET /api/docs, generated from the routes' zod
 * schemas: the same ones that validate requests and the web app's forms.
 * Register before the routes it should describe.
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Peeks Wallet API', version: '0.0.0' },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
            csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    app.get('/api/docs', { schema: { hide: true }, config: { access: 'public' } }, () => app.swagger());
  },
  { name: 'openapi' },
);
