import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../../../web/dist');

/**
 * Serves the built React app from the API's own port. Hashed assets are
 * cached for good; index.html never, and it answers every client-side route.
 */
export const webApp = fp(
  async (app: FastifyInstance, options: { root: string }) => {
    if (!existsSync(path.join(options.root, 'index.html'))) {
      app.log.warn({ root: options.root }, 'web app is not built (npm run build); serving the API only');
      return;
    }
    await app.register(fastifyStatic, {
      root: options.root,
      wildcard: false,
      index: false,
      setHeaders: (reply, file) => {
        void reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/*', { schema: { hide: true }, config: { access: 'public' } }, (request, reply) => {
      if (request.url === '/api' || request.url.startsWith('/api/')) {
        reply.callNotFound();
        return reply;
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
