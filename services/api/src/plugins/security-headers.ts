import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityHeaderOptions {
  /** Production: browsers are told to use HTTPS only (HSTS). */
  production: boolean;
  /** The built web app, whose inline <style> blocks the policy allows by hash. */
  webRoot?: string;
}

/** The hashes of index.html's inline <style> blocks (the startup loader), so no 'unsafe-inline' is needed. */
export function inlineStyleHashes(indexHtml: string): string[] {
  return [...indexHtml.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(
    ([, css]) =>
      `'sha256-${createHash('sha256')
        .update(css ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The app's content security policy: scripts, styles, images and
 * connections (the live WebSocket included) from this origin only; frames
 * from this origin only (the sandbox tokenizer); nobody may frame the app.
 * A route that sets its own policy (the tokenizer page) keeps it.
 */
export function contentSecurityPolicy(styleHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${styleHashes.join(' ')}`.trim(),
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The camera for this origin only (the QR scanner); nothing else the app does not use. */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()';

/**
 * Headers every answer carries, the web app's and the API's alike (issue 21,
 * item 3). API answers are never stored by a browser or a proxy: they hold
 * a session's CSRF token, balances and transactions.
 */
export const securityHeaders = fp(
  (app: FastifyInstance, options: SecurityHeaderOptions) => {
    const index = options.webRoot === undefined ? null : path.join(options.webRoot, 'index.html');
    const policy = contentSecurityPolicy(
      index !== null && existsSync(index) ? inlineStyleHashes(readFileSync(index, 'utf8')) : [],
    );
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!reply.hasHeader('content-security-policy')) void reply.header('content-security-policy', policy);
      if (!reply.hasHeader('x-frame-options')) void reply.header('x-frame-options', 'DENY');
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('referrer-policy', 'no-referrer');
      void reply.header('permissions-policy', PERMISSIONS_POLICY);
      void reply.header('cross-origin-opener-policy', 'same-origin');
      if (options.production) void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      done(null, payload);
    });
    return Promise.resolve();
  },
  { name: 'security-headers' },
);
