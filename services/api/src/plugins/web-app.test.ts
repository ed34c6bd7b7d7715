import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

let subject: TestApp;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'peeks-web-'));
  await mkdir(path.join(root, 'assets'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Peeks Wallet</title><div id="root"></div>');
  await writeFile(path.join(root, 'assets', 'index-abc123.js'), 'console.log("app")');
  subject = await createTestApp({ webRoot: root });
});
afterAll(async () => {
  await subject.close();
  await rm(root, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves index.html for the root and for client-side routes, never cached', async () => {
    for (const url of ['/', '/wallet', '/transfer-fund?gid=1&amt=5']) {
      const response = await subject.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('Peeks Wallet');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('keeps unknown API routes as JSON 404s', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/wallet/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ response: 'error' });
  });
});
