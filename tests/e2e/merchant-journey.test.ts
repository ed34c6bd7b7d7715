import { businessSignUp } from '@peeks/api/testing';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './browser.ts';
import { acceptPendingAgreement, checkScreen, newcomer, signedInAs, signUpAsPerson } from './journey.ts';
import { startPeeks, type PeeksServer } from './peeks-server.ts';

/**
 * A merchant's day, against npm start: a buyer pays the merchant's checkout
 * on the hosted checkout page;
 * the merchant, with the dashboard open, sees the sale arrive, returns half
 * of it with a reason from Transfers; the buyer's balance shows the refund,
 * the merchant's webhook receiver on loopback hears `return`, the sale shows
 * refunded, and the report's CSV holds both lines. Every screen at 1366 px
 * and 390 px, axe clean and without sideways scroll.
 */
let server: PeeksServer;
let browser: Browser;
let merchant: Page;
let buyer: Page;
let receiver: Server;
const heard: { type: string; data: Record<string, unknown> }[] = [];
const shopper = newcomer('buyer');
const owner = {
  ...businessSignUp(),
  username: `shop${String(Date.now()).slice(-6)}`,
  email: `shop${String(Date.now()).slice(-6)}@example.com`,
};
let saleTxId = '';

/** A call of the API from inside the page, as its session (cookie and CSRF token) makes it. */
async function callFrom(page: Page, method: 'GET' | 'POST', path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method,
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': session.csrfToken,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, text };
    },
    { method, path, body },
  );
}

/** Photographs `name` at 1366 px and 390 px, each axe clean and without sideways scroll. */
async function atBothWidths(page: Page, name: string) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await checkScreen(page, `${name}-${width}`);
    // A string runs in the page: the tests compile without the DOM's types.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

const merchantNav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Merchant' }).getByRole('link', { name, exact: true }).click();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      heard.push(JSON.parse(text) as (typeof heard)[number]);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The receiver is on loopback: the server must allow private webhook hosts, as in development.
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  [server, browser] = await Promise.all([startPeeks(), openBrowser()]);
  const newPage = async () =>
    (await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } })).newPage();
  [merchant, buyer] = await Promise.all([newPage(), newPage()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('a merchant returns half of a sale in the browser', { timeout: 180_000 }, () => {
  it('the merchant signs up, subscribes a webhook and opens the Merchant Dashboard', async () => {
    await merchant.goto(`${server.url}/login`);
    const registered = await callFrom(merchant, 'POST', '/api/register/business', owner);
    expect(registered.status, registered.text).toBe(200);
    await merchant.goto(`${server.url}/`);
    await signedInAs(merchant, owner.username);
    await acceptPendingAgreement(merchant);
    const { port } = receiver.address() as { port: number };
    const hook = await callFrom(merchant, 'POST', '/api/webhook/create-webhook', {
      state: 'enabled',
      url: `http://127.0.0.1:${port}/peeks`,
      events: ['purchase', 'return'],
    });
    expect(hook.status, hook.text).toBe(200);

    await merchantNav(merchant, 'Merchant Dashboard');
    await merchant.getByRole('heading', { name: 'Merchant Dashboard', level: 1 }).waitFor();
    await merchant.getByText('No sales yet.').first().waitFor();
    await atBothWidths(merchant, '40-merchant-dashboard-empty');
  });

  it("a buyer pays the merchant's checkout, and the open dashboard shows the sale live", async () => {
    await buyer.goto(`${server.url}/register/personal`);
    await signUpAsPerson(buyer, shopper);
    const user = await server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', shopper.username)
      .executeTakeFirstOrThrow();
    await executeLedgerCommand(
      server.database.db,
      {
        type: 'CorrectBalance',
        txId: `journey-funds-${shopper.username}`,
        ownerId: userOwnerId(user.user_id),
        amount: 20_00,
        currency: 'USD',
        reason: 'journey funds',
        operatorId: 'test',
      },
      { holdHours: 24 },
    );
    const session = await callFrom(merchant, 'POST', '/api/checkout/create-session', {
      cart: [{ sku: 'MUG-01', name: 'Maple mug', price: 12_00 }],
      total: 12_00,
      currency: 'USD',
      expires_in: 3600,
      success_url: 'https://shop.example.com/thanks',
    });
    expect(session.status, session.text).toBe(200);
    const { id, token } = JSON.parse(session.text) as { id: number; token: string };
    // The buyer pays on the hosted checkout page, as a shop's customer would.
    await buyer.goto(`${server.url}/checkout?id=${String(id)}&token=${token}`);
    await buyer.getByRole('table', { name: 'Cart' }).getByText('Maple mug').waitFor();
    await buyer.getByRole('radio', { name: /Wallet balance \$20\.00 USD/ }).waitFor();
    await atBothWidths(buyer, '40b-checkout-pay');
    await buyer.getByRole('button', { name: 'Process My Payment' }).click();
    const receipt = buyer.getByRole('region', { name: 'Payment received' });
    await receipt.getByText('$12.00 USD paid to').waitFor();
    await atBothWidths(buyer, '40c-checkout-receipt');
    saleTxId = (await receipt.locator('.tx-id').textContent()) ?? '';
    expect(saleTxId).toMatch(/^checkout_/);

    const recent = merchant.getByRole('region', { name: 'Recent payments', exact: true });
    await expect.poll(() => recent.textContent(), { timeout: 15_000 }).toContain('$12.00 USD');
    await atBothWidths(merchant, '41-merchant-dashboard-sale');
  });

  it('the merchant returns half of it with a reason from Transfers', async () => {
    await merchantNav(merchant, 'Transfers');
    const row = merchant.locator(`tr[data-tx-id="${saleTxId}"]`);
    await row.waitFor();
    await atBothWidths(merchant, '42-merchant-transfers');
    await row.getByRole('button', { name: 'Return' }).click();
    const dialog = merchant.getByRole('dialog', { name: 'Return a sale' });
    await dialog.getByLabel('Amount (USD)').fill('6.00');
    await dialog.getByLabel('Reason').fill('Chipped mug');
    await atBothWidths(merchant, '43-merchant-return-dialog');
    await dialog.getByRole('button', { name: 'Return' }).click();
    // Nothing moves before the amount is confirmed.
    await dialog
      .getByRole('status')
      .getByText('Return $6.00 USD of this $12.00 USD sale? The sale stays partly refunded.', { exact: false })
      .waitFor();
    await atBothWidths(merchant, '43-merchant-return-confirm');
    await dialog.getByRole('button', { name: 'Confirm return of $6.00 USD' }).click();
    await merchant.getByText('$6.00 USD returned').waitFor();
    // Half of it: partly refunded, not refunded.
    await row.getByText('$6.00 USD refunded').waitFor();
    await atBothWidths(merchant, '44-merchant-transfers-refunded');

    await merchantNav(merchant, 'Returns');
    await merchant.getByText('Chipped mug').waitFor();
    await atBothWidths(merchant, '45-merchant-returns');
  });

  it("the buyer's balance shows the refund and the webhook receiver hears `return`", async () => {
    await expect
      .poll(
        async () => {
          const balance = await callFrom(buyer, 'GET', '/api/account/balance');
          const { balances } = (
            JSON.parse(balance.text) as { balance: { balances: { currency: string; available_balance: number }[] } }
          ).balance;
          return balances.find((each) => each.currency === 'USD')?.available_balance;
        },
        { timeout: 10_000 },
      )
      .toBe(14_00);
    await buyer.goto(`${server.url}/wallet`);
    await checkScreen(buyer, '46-buyer-wallet-refunded');
    await expect
      .poll(() => heard.map((message) => message.type), { timeout: 30_000, interval: 250 })
      .toContain('return');
    expect(heard.find((message) => message.type === 'return')?.data).toMatchObject({ ledger_event: 'SaleReturned' });
  });

  it("the report's CSV holds the sale and the return, and the settlements screen says none yet", async () => {
    await merchantNav(merchant, 'Reports');
    await merchant.getByRole('table', { name: 'Totals' }).waitFor();
    await atBothWidths(merchant, '47-merchant-reports');
    const href = await merchant.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await callFrom(merchant, 'GET', href ?? '');
    expect(csv.status).toBe(200);
    const [header, ...lines] = csv.text.trimEnd().split('\r\n');
    expect(header).toBe('date,type,transaction,sale,currency,amount,fee,state,reason,batch,customer');
    expect(lines.filter((line) => line.includes(',sale,'))).toEqual([
      expect.stringContaining(`${saleTxId},,USD,12.00`),
    ]);
    expect(lines.filter((line) => line.includes(',return,'))).toEqual([
      expect.stringContaining(`${saleTxId},USD,6.00,0.00,completed,Chipped mug`),
    ]);

    await merchantNav(merchant, 'Settlements');
    await merchant.getByText('No settlements yet.').waitFor();
    await atBothWidths(merchant, '48-merchant-settlements');
  });
});
