import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, seriousAccessibilityViolations } from './browser.ts';
import { startPeeks, type PeeksServer } from './peeks-server.ts';

let server: PeeksServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startPeeks(), openBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

describe('the web app as npm start serves it', () => {
  it('shows its first page, with no serious accessibility violations', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.url);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain('Peeks');
    await screenshot(page, 'first-page');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
