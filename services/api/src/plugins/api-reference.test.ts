import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { inlineScriptHashes } from './api-reference.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp();
});
afterAll(() => subject.close());

describe('GET /api/reference', () => {
  it('renders GET /api/docs from this origin only, signed out, under a policy that allows its one inline script', async () => {
    const redirect = await subject.app.inject({ method: 'GET', url: '/api/reference' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/api/reference/');

    const page = await subject.app.inject({ method: 'GET', url: '/api/reference/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('"url": "/api/docs"');
    // Nothing from another origin: the script is this server's, fonts and telemetry are off.
    expect(page.body).toMatch(/<script src="js\/scalar\.js"><\/script>/);
    expect(page.body).not.toMatch(/https?:\/\//);
    expect(page.body).toContain('"withDefaultFonts": false');
    expect(page.body).toContain('"telemetry": false');

    const policy = String(page.headers['content-security-policy']);
    const hashes = inlineScriptHashes(page.body);
    expect(hashes).toHaveLength(1);
    expect(policy).toContain(`script-src 'self' ${hashes[0] ?? ''};`);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-eval');

    const script = await subject.app.inject({ method: 'GET', url: '/api/reference/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    // Other answers keep the app's own policy.
    const docs = await subject.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.headers['content-security-policy']).toContain("script-src 'self';");
  });
});
