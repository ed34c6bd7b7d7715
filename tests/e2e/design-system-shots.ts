import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { openBrowser } from './browser.ts';

/**
 * The design system's pictures (docs/architecture/design-system.md): the
 * dashboard and three screens of the demo personal user, at 1280 and 390 px,
 * as palette PNGs small enough to keep in the repository. Against a running
 * `npm start` with its demo data:
 *
 *   PEEKS_URL=http://127.0.0.1:3000 DEMO_PASSWORD=<as npm start printed it> npx node tests/e2e/design-system-shots.ts
 */
const BASE = process.env.PEEKS_URL ?? 'http://127.0.0.1:3000';
const PASSWORD = process.env.DEMO_PASSWORD;
if (!PASSWORD) throw new Error("DEMO_PASSWORD: the demo personal user's password, as npm start printed it");
const OUT = path.resolve(import.meta.dirname, '../../docs/architecture/design-system');
const SCREENS = [
  { name: 'dashboard', route: '/', ready: '[data-testid="balance-available"]' },
  { name: 'transactions', route: '/transaction', ready: 'tbody tr' },
  { name: 'profile', route: '/profile', ready: 'dl' },
  { name: 'payment-methods', route: '/payment-method-list', ready: 'h1' },
];
const WIDTHS = [1280, 390];

const browser = await openBrowser();
try {
  await mkdir(OUT, { recursive: true });
  for (const width of WIDTHS) {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/login`);
    await page.getByLabel('Email or username').fill('demo_personal');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await page.waitForURL(`${BASE}/`);
    for (const { name, route, ready } of SCREENS) {
      await page.goto(`${BASE}${route}`);
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      const shot = await page.screenshot({ fullPage: true, animations: 'disabled' });
      const png = await sharp(shot).png({ palette: true, quality: 80, compressionLevel: 9 }).toBuffer();
      await writeFile(path.join(OUT, `${name}-${String(width)}.png`), png);
      process.stdout.write(`${name}-${String(width)}.png ${String(Math.round(png.length / 1024))} KB\n`);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
