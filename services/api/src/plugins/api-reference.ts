import { createHash } from 'node:crypto';
import Fastify, { type FastifyPluginCallback } from 'fastify';

export const API_REFERENCE_PATH = '/api/reference';

/** The sha256 sources of an HTML page's inline scripts, so the policy allows those and nothing else inline. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map(([, code]) => code ?? '')
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
}

/**
 * The reference page's own policy: the app's, except that its one inline
 * script (the page's configuration) is allowed by hash and the renderer may
 * inject styles. Everything still comes from this origin only: the
 * renderer's script is served from node_modules below, and fonts, telemetry
 * and the request proxy are switched off in its configuration.
 */
export function referencePolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const REFERENCE_CONFIGURATION = {
  url: '/api/docs',
  pageTitle: 'Peeks Wallet API reference',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  // Both would talk to Scalar's servers.
  agent: { disabled: true },
  mcp: { disabled: true },
} as const;

const REFERENCE_URLS = [`${API_REFERENCE_PATH}/`, `${API_REFERENCE_PATH}/js/scalar.js`] as const;

interface RenderedAnswer {
  statusCode: number;
  contentType: string;
  body: string;
}

/**
 * Scalar's page and script, rendered once on the first request for the
 * reference by its plugin in an instance of its own, then kept: neither
 * changes while the process runs. The plugin's module holds the 4 MB
 * browser bundle as a string and costs some 20 MB of memory, which every
 * API process would otherwise carry for a page few ever open.
 */
let renderedReference: Promise<ReadonlyMap<string, RenderedAnswer>> | undefined;

function scalarReference(): Promise<ReadonlyMap<string, RenderedAnswer>> {
  renderedReference ??= (async () => {
    const { default: apiReference } = await import('@scalar/fastify-api-reference');
    const instance = Fastify({ logger: false });
    await instance.register(apiReference, { routePrefix: API_REFERENCE_PATH, configuration: REFERENCE_CONFIGURATION });
    const answers = new Map<string, RenderedAnswer>();
    for (const url of REFERENCE_URLS) {
      const answer = await instance.inject({ method: 'GET', url });
      answers.set(url, {
        statusCode: answer.statusCode,
        contentType: String(answer.headers['content-type']),
        body: answer.body,
      });
    }
    await instance.close();
    return answers;
  })().catch((error: unknown) => {
    renderedReference = undefined;
    throw error;
  });
  return renderedReference;
}

/**
 * A rendered reference of GET /api/docs at /api/reference, served by the
 * app itself (Scalar's bundle from node_modules, no CDN). Public like the
 * document. Registered without fastify-plugin so that its hooks stay on its
 * own routes.
 */
export const apiReferenceRoutes: FastifyPluginCallback = (app, _options, registered) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'public' };
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html'))
      void reply.header('content-security-policy', referencePolicy(inlineScriptHashes(payload)));
    done(null, payload);
  });
  const hidden = { schema: { hide: true }, logLevel: 'warn' } as const;
  for (const url of REFERENCE_URLS)
    app.get(url, hidden, async (request, reply) => {
      // The app ignores trailing slashes, so this route answers /api/reference too: the page's relative script needs the slash.
      if (url.endsWith('/') && !request.url.split('?')[0]?.endsWith('/')) return reply.redirect(url, 301);
      const answer = (await scalarReference()).get(url);
      if (!answer) throw new Error(`no rendered answer for ${url}`);
      return reply.code(answer.statusCode).header('content-type', answer.contentType).send(answer.body);
    });
  registered();
};
