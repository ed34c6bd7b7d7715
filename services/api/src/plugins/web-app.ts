import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../../../web/dist');

/** Where the build puts its content-hashed files: a name there never changes content. */
const HASHED = `${path.sep}assets${path.sep}`;

/**
 * Serves the built React app from the API's own port. Hashed assets are
 * cached for good; everything else (index.html, the favicon) is revalidated
 * on each use, and index.html answers every client-side route. Each text
 * file is sent as the brotli or gzip copy the build made beside it
 * (`.br`, `.gz`) when the browser accepts one, with `Vary: Accept-Encoding`,
 * so nothing is compressed per request.
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
      preCompressed: true,
      // The compressed copies are other encodings of their file, never addresses of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (reply, file) => {
        void reply.header('cache-control', file.includes(HASHED) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/*', { schema: { hide: true }, config: { access: 'public' } }, (request, reply) => {
      // The API's unknown routes stay JSON 404s; so does a file the build does not have (an old hash after a
      // deploy), rather than the page in place of a script.
      if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/assets/')) {
        reply.callNotFound();
        return reply;
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web-app' },
);
