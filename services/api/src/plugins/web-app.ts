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
): Promise<{ json: string; setCookie: string | string[] | undefined; signedIn: boolean } | null> {
  const headers = { ...(request.headers.cookie === undefined ? {} : { cookie: request.headers.cookie }) };
  const session = await app.inject({ method: 'GET', url: '/api/session', headers });
  if (session.statusCode !== 200) return null;
  const answers: { session: unknown; balance?: unknown } = { session: session.json() };
  const setCookie = session.headers['set-cookie'];
  const signedIn = (answers.session as { user?: unknown }).user != null;
  if (signedIn) {
    // The cookie the session route may just have set is the one the balance is asked with.
    const cookie = setCookie === undefined ? headers : { cookie: cookiePairs(setCookie) };
    const balance = await app.inject({ method: 'GET', url: '/api/account/balance', headers: cookie });
    if (balance.statusCode === 200) answers.balance = balance.json();
  }
  // `<` escaped, so nothing in a name or an e-mail can close the script element or open a comment.
  return { json: JSON.stringify(answers).replace(/</g, '\\u003c'), setCookie, signedIn };
}

/** What a lazily loaded module of the web app needs beyond the first load (web/screen-chunks.ts writes them). */
interface ScreenChunks {
  js: string[];
  css: string[];
}

/** The build's map from each lazy module of web/src to its files (web/screen-chunks.ts), never served. */
const SCREEN_CHUNKS_FILE = path.join('.vite', 'screen-chunks.json');

/**
 * The lazy modules (routes.tsx, main.tsx) the first screen of a page
 * renders with, by address and by whether someone is signed in: the
 * signed-in layout and the wallet for the dashboard (main.tsx primes the
 * balance through the wallet's index), the sign-in form for a guest. A
 * guest sent to `/` goes on to sign in, someone signed in sent to `/login`
 * goes home. Other pages find their chunks as their script runs.
 */
const dashboard = [
  'src/features/shell/DashboardLayout.tsx',
  'src/features/wallet/WalletPage.tsx',
  'src/features/wallet/index.ts',
];
const signIn = ['src/features/session/LoginPage.tsx'];
const home = { signedIn: [...dashboard, 'src/features/agreements/PendingAgreement.tsx'], guest: signIn };
const FIRST_SCREENS: Record<string, { signedIn: readonly string[]; guest: readonly string[] }> = {
  '/': home,
  '/wallet': { signedIn: dashboard, guest: signIn },
  '/login': home,
};

/**
 * `<link>`s for the files the page at `pathname` needs before its first
 * screen, so the browser fetches them beside the main script instead of
 * once it has run and asked for them (about 200 ms later on a phone).
 * Module preloads as Vite's own loader would make them (credentialed alike,
 * so it uses them), stylesheets preloaded: Vite's loader adds them. The
 * modules at low priority: at the default (high) they wait ahead of the
 * first paint, and the start-up loader no longer painted before the
 * dashboard (first paint 2.7 s against 2.1 s in Lighthouse's phone run).
 */
function firstScreenLinks(screens: Record<string, ScreenChunks>, pathname: string, signedIn: boolean): string {
  const modules = FIRST_SCREENS[pathname]?.[signedIn ? 'signedIn' : 'guest'] ?? [];
  const js = new Set(modules.flatMap((module) => screens[module]?.js ?? []));
  const css = new Set(modules.flatMap((module) => screens[module]?.css ?? []));
  return [
    ...[...js].map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`),
    ...[...css].map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ].join('');
}

/** The build's map, or none (a build without it, or a test's page): the page then goes without the links. */
function readScreenChunks(root: string): Record<string, ScreenChunks> {
  const file = path.join(root, SCREEN_CHUNKS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ScreenChunks>) : {};
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
    const screens = readScreenChunks(options.root);
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
      const pathname = request.url.split('?')[0] ?? '/';
      const html = page
        .replace('</head>', `${firstScreenLinks(screens, pathname, answers.signedIn)}</head>`)
        .replace(mount, `<script type="application/json" id="${FIRST_ANSWERS_ID}">${answers.json}</script>${mount}`);
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
