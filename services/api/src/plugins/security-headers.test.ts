import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { signedUp } from '../testing/merchants.ts';
import { SESSION_COOKIE } from './sessions.ts';

const LOADER_CSS = '#startup-loader { display: grid; }';
let subject: TestApp;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'peeks-headers-'));
  await mkdir(path.join(root, 'assets'));
  await writeFile(
    path.join(root, 'index.html'),
    `<!doctype html><title>Peeks Wallet</title><style>${LOADER_CSS}</style><div id="root"></div>`,
  );
  subject = await createTestApp({ webRoot: root });
});
afterAll(async () => {
  await subject.close();
  await rm(root, { recursive: true, force: true });
});

const directives = (policy: unknown) =>
  Object.fromEntries(
    String(policy)
      .split(';')
      .map((each) => each.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );

describe('security headers (issue 21, item 3)', () => {
  it('give the web app a CSP with scripts from self only, its inline style by hash, and no framing', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/wallet' });
    expect(response.statusCode).toBe(200);
    const policy = directives(response.headers['content-security-policy']);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['frame-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['style-src']).toEqual([
      "'self'",
      `'sha256-${createHash('sha256').update(LOADER_CSS).digest('base64')}'`,
    ]);
    expect(JSON.stringify(policy)).not.toContain('unsafe');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['permissions-policy']).toContain('camera=(self)');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('mark every API answer no-store, the session with its CSRF token and signed-in balances included', async () => {
    const who = await signedUp(subject, 'personal');
    for (const url of ['/api/session', '/api/account/balance', '/api/user/contact-list']) {
      const response = await who.browser.get(url);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
    const refused = await subject.app.inject({ method: 'POST', url: '/api/logout' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('keep the tokenizer page framable by the app only', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/sandbox/tokenizer' });
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'"]);
  });

  it('send a __Host- session cookie, Secure, path /, with no domain', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/session' });
    const cookie = response.cookies.find((each) => each.name === SESSION_COOKIE);
    expect(SESSION_COOKIE.startsWith('__Host-')).toBe(true);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/' });
    expect(cookie?.domain).toBeUndefined();
  });

  it('add HSTS in production', async () => {
    const production = await createTestApp({ production: true });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await production.close();
    }
  });
});
