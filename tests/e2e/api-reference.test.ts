import { describe, expect, it } from 'vitest';
import { screenshot } from './browser.ts';
import { stage } from './stage.ts';

const peeks = stage();

describe('the API reference', () => {
  it('renders every feature of GET /api/docs under its policy, with nothing fetched from elsewhere', async () => {
    const page = await peeks.page();
    const { origin } = new URL(peeks.server.url);
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${peeks.server.url}/api/reference`);
    await expect
      .poll(() => page.getByText('Register a personal account').count(), { timeout: 60_000 })
      .toBeGreaterThan(0);
    for (const feature of ['send-fund', 'card-payments', 'operations', 'webhooks'])
      expect(await page.getByText(feature, { exact: true }).count(), feature).toBeGreaterThan(0);
    await screenshot(page, 'api-reference');
    expect(refused).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 120_000);
});
