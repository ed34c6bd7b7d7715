import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../../../web/dist');

/** Where the build puts its content-hashed files: a name there never changes content. */
const HASHED = `${path.sep}assets${path.sep}`;

/** The element the page's script reads the first answers from (web/src/features/session/first-answers.ts). */
export const FIRST_ANSWERS_ID = 'first-answers';

/**
 * The answers every page's script would ask for first, in a row (the
 * session, then for someone signed in the balance), asked of this server's
 * own routes in process, so their rules, refusals and shapes stay theirs.
 * A session cookie the session route sets (a first visit) goes out with
 * the page. Null when the session does not answer 200: the page then asks
 * for itself, as before.
 */
async function firstAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ json: string; setCookie: string | string[] | undefined } | null> {
  const headers = { ...(request.headers.cookie === undefined ? {} : { cookie: request.headers.cookie }) };
  const session = await app.inject({ method: 'GET', url: '/api/session', headers });
  if (session.statusCode !== 200) return null;
  const answers: { session: unknown; balance?: unknown } = { session: session.json() };
  const setCookie = session.headers['set-cookie'];
  if ((answers.session as { user?: unknown }).user != null) {
    // The cookie the session route may just have set is the one the balance is asked with.
    const cookie = setCookie === undefined ? headers : { cookie: cookiePairs(setCookie) };
    const balance = await app.inject({ method: 'GET', url: '/api/account/balance', headers: cookie });
    if (balance.statusCode === 200) answers.balance = balance.json();
  }
  // `<` escaped, so nothing in a name or an e-mail can close the script element or open a comment.
  return { json: JSON.stringify(answers).replace(/</g, '\\u003c'), setCookie };
}

/** `name=value` of each Set-Cookie header, as a Cookie header sends them back. */
const cookiePairs = (setCookie: string | string[]) =>
  (Array.isArray(setCookie) ? setCookie : [setCookie]).map((each) => each.split(';')[0] ?? '').join('; ');

/** The page in the encoding the browser takes best (brotli at a fast level: it is made per request). */
function encoded(request: FastifyRequest, html: string): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const accepted = request.headers['accept-encoding'] ?? '';
  if (/\bbr\b/.test(accepted))
    return {
      body: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(html), encoding: 'gzip' };
  return { body: Buffer.from(html), encoding: null };
}

/**
 * Serves the built React app from the API's own port. Hashed assets are
 * cached for good; everything else (the favicon) is revalidated on each
 * use. index.html answers every client-side route, with the session and
 * balance its script would ask for first already in it (never stored). Each text
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
    const page = readFileSync(path.join(options.root, 'index.html'), 'utf8');
    const mount = '<div id="root">';
    app.get('/*', { schema: { hide: true }, config: { access: 'public' } }, async (request, reply) => {
      // The API's unknown routes stay JSON 404s; so does a file the build does not have (an old hash after a
      // deploy), rather than the page in place of a script.
      if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/assets/')) {
        reply.callNotFound();
        return reply;
      }
      const answers = await firstAnswers(app, request);
      if (answers === null || !page.includes(mount))
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      // The page carries this visitor's session (its CSRF token) and balance: never stored, by anyone.
      if (answers.setCookie !== undefined) void reply.header('set-cookie', answers.setCookie);
      const html = page.replace(
        mount,
        `<script type="application/json" id="${FIRST_ANSWERS_ID}">${answers.json}</script>${mount}`,
      );
      const { body, encoding } = encoded(request, html);
      if (encoding !== null) void reply.header('content-encoding', encoding);
      return reply
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding, cookie')
        .type('text/html; charset=utf-8')
        .send(body);
    });
  },
  { name: 'web-app' },
);
