import { createHash } from 'node:crypto';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

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

/**
 * A rendered reference of GET /api/docs at /api/reference, served by the
 * app itself (Scalar's bundle from node_modules, no CDN). Public like the
 * document. Registered without fastify-plugin so that its hooks stay on its
 * own routes.
 */
export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'public' };
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html'))
      void reply.header('content-security-policy', referencePolicy(inlineScriptHashes(payload)));
    done(null, payload);
  });
  await app.register(apiReference, {
    routePrefix: API_REFERENCE_PATH,
    logLevel: 'warn',
    configuration: {
      url: '/api/docs',
      pageTitle: 'Peeks Wallet API reference',
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      hideClientButton: true,
      // Both would talk to Scalar's servers.
      agent: { disabled: true },
      mcp: { disabled: true },
    },
  });
}
