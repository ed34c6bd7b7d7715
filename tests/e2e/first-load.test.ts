import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkScreen, newcomer, signUpAsPerson } from './journey.ts';
import { PHONE, stage } from './stage.ts';

const peeks = stage();

/** A GET of the built app as a client that accepts `encoding` (or none), its body as sent. */
function fetchAs(
  path: string,
  encoding?: string,
): Promise<{ headers: IncomingHttpHeaders; status: number; body: Buffer }> {
  // node:http, not fetch, which would decode the body itself: the bytes on the wire are what is checked here.
  return new Promise((resolve, reject) => {
    get(`${peeks.server.url}${path}`, { headers: { 'accept-encoding': encoding ?? 'identity' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ headers: response.headers, status: response.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/** Every layout shift of the page so far (none after input), with what moved. */
const LAYOUT_SHIFTS = `
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput)
        window.__shifts.push(
          entry.value.toFixed(4) + ' ' + entry.sources.map((source) => source.node?.nodeName + '.' + source.node?.className).join(' '),
        );
  }).observe({ type: 'layout-shift', buffered: true });
`;
const shifts = (page: Page) => page.evaluate<string[]>('window.__shifts');

describe('the first load', () => {
  it('sends every file of the page brotli-compressed or gzipped as the browser accepts, hashed ones cached for good', async () => {
    const page = await fetchAs('/', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    // The page carries its visitor's session (services/api's web-app plugin): never stored.
    expect(page.headers['cache-control']).toBe('no-store');
    const html = brotliDecompressSync(page.body).toString();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(([, path]) => path ?? '');
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const raw = await fetchAs(asset);
      expect(raw.headers['content-encoding'], asset).toBeUndefined();
      expect(raw.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      const brotli = await fetchAs(asset, 'gzip, deflate, br');
      // A file of a few bytes has no smaller copy (the build skips one that saves nothing).
      if (raw.body.length < 200) continue;
      expect(brotli.headers['content-encoding'], asset).toBe('br');
      expect(brotli.headers['vary'], asset).toContain('accept-encoding');
      expect(brotliDecompressSync(brotli.body).equals(raw.body), asset).toBe(true);
      const gzip = await fetchAs(asset, 'gzip');
      expect(gzip.headers['content-encoding'], asset).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(raw.body), asset).toBe(true);
    }
  });

  it('answers /favicon.ico with the brand icon, and the page names it', async () => {
    const icon = await fetchAs('/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\//);
    expect([...icon.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const html = (await fetchAs('/')).body.toString();
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
  });

  it('moves nothing in view as the sign-in page and the dashboard load on a phone', async () => {
    const page = await peeks.page(PHONE);
    await page.addInitScript(LAYOUT_SHIFTS);
    await page.goto(`${peeks.server.url}/login`);
    await page.getByRole('heading', { name: 'Account Access' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await shifts(page)).toEqual([]);

    await page.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(page, newcomer('steady'));
    // A fresh load of the dashboard, as a returning user opens it.
    await page.goto(`${peeks.server.url}/`);
    await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
    await page.getByText('No activity yet. Add funds to get started.').waitFor();
    expect(await shifts(page)).toEqual([]);
    await checkScreen(page, 'first-load-dashboard-phone');
  }, 120_000);
});
