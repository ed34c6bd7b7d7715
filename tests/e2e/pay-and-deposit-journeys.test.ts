import { businessSignUp } from '@peeks/api/testing';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { startFakeEsplora } from '@peeks/worker/testing';
import jsqr from 'jsqr';
import { sql } from 'kysely';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser } from './browser.ts';
import {
  acceptPendingAgreement,
  atBothWidths,
  callFrom,
  checkScreen,
  newcomer,
  signedBy,
  signedInAs,
  signOut,
  signUpAsPerson,
} from './journey.ts';
import { PHONE, stage, webhookReceiver } from './stage.ts';

/**
 * Issue 23's journeys against npm start, one server and one Chromium for the
 * file: an Interac deposit cleared by a finance operator while the pending
 * view is open; a bitcoin deposit paid through a fake Esplora going from
 * seen through a confirmation to cleared in the open pending view; a merchant's counter QR code read by a second Chromium
 * whose camera films it, paid on /transfer-fund, the merchant's modal
 * showing the payment live; and a guest who signs in on the hosted checkout
 * page, pays from the wallet once, and whose payment reaches the merchant's
 * webhook receiver on loopback, signed. Each screen photographed at 1366 px
 * and 390 px and checked with axe.
 */
// The server's bitcoin watcher asks a fake Esplora every second and clears after two confirmations.
const esplora = await startFakeEsplora();
process.env.BITCOIN_ESPLORA_URL = esplora.url;
process.env.BITCOIN_POLL_SECONDS = '1';
process.env.BITCOIN_CONFIRMATIONS = '2';
const peeks = stage();
const receiver = webhookReceiver();

afterAll(async () => {
  await esplora.close();
});

async function userIdOf(username: string): Promise<number> {
  const row = await peeks.server.database.db
    .selectFrom('users')
    .select('user_id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.user_id;
}

/** Money in a wallet without a deposit flow: a finance correction, as the demo data makes. */
async function fund(username: string, amount: number, currency: 'USD' | 'CON') {
  await executeLedgerCommand(
    peeks.server.database.db,
    {
      type: 'CorrectBalance',
      txId: `journey-funds-${username}-${currency}`,
      ownerId: userOwnerId(await userIdOf(username)),
      amount,
      currency,
      reason: 'journey funds',
      operatorId: 'test',
    },
    { holdHours: 24 },
  );
}

/** A merchant signed in on the dashboard, its agreement accepted. */
async function merchantOf(prefix: string): Promise<{ page: Page; username: string }> {
  const suffix = String(Date.now()).slice(-6);
  const owner = { ...businessSignUp(), username: `${prefix}${suffix}`, email: `${prefix}${suffix}@example.com` };
  const page = await peeks.page();
  await page.goto(`${peeks.server.url}/login`);
  const registered = await callFrom(page, 'POST', '/api/register/business', owner);
  expect(registered.status, registered.text).toBe(200);
  await page.goto(`${peeks.server.url}/`);
  await signedInAs(page, owner.username);
  await acceptPendingAgreement(page);
  return { page, username: owner.username };
}

/**
 * The QR image as the camera would film it: a 480×480 white frame with the
 * code in the middle, as one frame of a Y4M video (I420, full range), which
 * Chromium's fake camera plays in a loop.
 */
async function qrVideo(page: Page, file: string): Promise<void> {
  const size = 480;
  const rgba = await page.evaluate<number[]>(`(async () => {
    const image = document.querySelector('img.qr-code');
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = ${String(size)};
    canvas.height = ${String(size)};
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, ${String(size)}, ${String(size)});
    context.drawImage(image, 60, 60, 360, 360);
    return Array.from(context.getImageData(0, 0, ${String(size)}, ${String(size)}).data);
  })()`);
  const luma = Buffer.alloc(size * size);
  const chroma = Buffer.alloc((size / 2) * (size / 2), 128);
  for (let pixel = 0; pixel < size * size; pixel += 1) {
    const [red, green, blue] = [rgba[pixel * 4] ?? 0, rgba[pixel * 4 + 1] ?? 0, rgba[pixel * 4 + 2] ?? 0];
    luma[pixel] = Math.round(0.299 * red + 0.587 * green + 0.114 * blue);
  }
  const header = `YUV4MPEG2 W${String(size)} H${String(size)} F10:1 Ip A1:1 C420jpeg\n`;
  await writeFile(file, Buffer.concat([Buffer.from(header), Buffer.from('FRAME\n'), luma, chroma, chroma]));
}

describe('deposits, QR codes and the hosted checkout in the browser', { timeout: 240_000 }, () => {
  it("an Interac deposit: the operator clears it, and the person's pending list and balance update live", async () => {
    const person = await peeks.page();
    const ann = newcomer('interac');
    await person.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(person, ann);

    // The wallet card's Add Funds opens the deposit-method modal.
    await person.locator('a[href="/?deposit=choose"]').first().click();
    const choose = person.getByRole('dialog', { name: 'Deposit Funds' });
    await choose.getByRole('button', { name: 'INTERAC EMT' }).waitFor();
    await atBothWidths(person, '60-deposit-choose');
    await choose.getByRole('button', { name: 'INTERAC EMT' }).click();
    const form = person.getByRole('dialog', { name: 'Email Money Transfer' });
    await form.getByLabel('Amount').fill('50');
    await form.getByText(/Coin equivalent: \d+ Coins/).waitFor();
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByLabel('Security Answer', { exact: true }).waitFor();
    await atBothWidths(person, '61-deposit-interac-steps');
    await form.getByRole('button', { name: 'Complete Transfer' }).click();
    await choose.getByRole('button', { name: 'View Pending Deposits' }).click();
    const pending = person.getByRole('dialog', { name: 'Pending Deposits' });
    await pending.getByText('Waiting for transfer').waitFor();
    await atBothWidths(person, '62-deposit-pending-waiting');

    const listed = await callFrom(person, 'GET', '/api/account/deposits');
    const [deposit] = (
      JSON.parse(listed.text) as { deposits: { tx_id: string; amount: number; currency: string; reference: string }[] }
    ).deposits;
    expect(deposit).toBeDefined();
    if (!deposit) return;

    const operator = await peeks.page();
    const fin = newcomer('clearer');
    await operator.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(operator, fin);
    await sql`UPDATE users SET role = 'finance' WHERE username = ${fin.username}`.execute(peeks.server.database.db);
    const cleared = await callFrom(operator, 'POST', '/api/operations/clear-deposit', {
      tx_id: deposit.tx_id,
      amount_received: deposit.amount,
      currency: deposit.currency,
      reference: deposit.reference,
    });
    expect(cleared.status, cleared.text).toBe(200);

    // No reload: the live feed moves the row to Cleared.
    await pending.getByText('Cleared', { exact: true }).waitFor({ timeout: 15_000 });
    await atBothWidths(person, '63-deposit-pending-cleared');
    const balance = await callFrom(person, 'GET', '/api/account/balance');
    const available = (JSON.parse(balance.text) as { balance: { available_balance: number } }).balance
      .available_balance;
    expect(available).toBeGreaterThan(0);
  });

  it('a bitcoin deposit: its QR names the address and amount shown; seen, confirmed and cleared live', async () => {
    const person = await peeks.page();
    await person.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(person, newcomer('satoshi'));
    await person.locator('a[href="/?deposit=choose"]').first().click();
    await person
      .getByRole('dialog', { name: 'Deposit Funds' })
      .getByRole('button', { name: 'BITCOIN DEPOSIT' })
      .click();
    const quote = person.getByRole('dialog', { name: 'Bitcoin Deposit' });
    await quote.getByLabel('Amount').fill('20');
    await quote.getByText(/1 BTC = /).waitFor();
    await atBothWidths(person, '69a-bitcoin-quote');
    await quote.getByRole('button', { name: 'Proceed with Purchase' }).click();
    const send = person.getByRole('dialog', { name: 'Send Bitcoin' });
    await send.locator('img.qr-code').waitFor();
    const address = await send.getByLabel('Receiving address', { exact: true }).inputValue();
    const due = ((await send.getByTestId('bitcoin-due').textContent()) ?? '').replace(' BTC', '');
    // The QR as drawn on screen decodes (jsqr, as the scanner reads it) to the address and amount shown (BIP21).
    const shot = await sharp(await send.locator('img.qr-code').screenshot())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // jsqr is CommonJS: its function is the module's `default`.
    const decoded = jsqr.default(new Uint8ClampedArray(shot.data), shot.info.width, shot.info.height);
    expect(decoded?.data).toBe(`bitcoin:${address}?amount=${due}`);
    await send.getByText(/Time left: /).waitFor();
    await atBothWidths(person, '69b-bitcoin-send');

    const listed = await callFrom(person, 'GET', '/api/account/deposits');
    const deposit = (
      JSON.parse(listed.text) as { deposits: { bitcoin: { address: string; amount_sats: number } | null }[] }
    ).deposits.find((each) => each.bitcoin?.address === address);
    expect(deposit?.bitcoin).toBeDefined();
    await send.getByRole('button', { name: 'View Pending Bitcoin Transfer' }).click();
    const pending = person.getByRole('dialog', { name: 'Pending Deposits' });
    await pending.getByText('Waiting for transfer').waitFor();

    // No reload from here on: each step reaches the open view over the live feed.
    esplora.pay(address, deposit?.bitcoin?.amount_sats ?? 0);
    await pending.getByText('Payment seen').waitFor({ timeout: 20_000 });
    esplora.mine();
    await pending.getByText('1 confirmation').waitFor({ timeout: 20_000 });
    await atBothWidths(person, '69c-bitcoin-confirming');
    esplora.mine();
    await pending.getByText('Cleared', { exact: true }).waitFor({ timeout: 20_000 });
    await atBothWidths(person, '69d-bitcoin-cleared');
  });

  it("a merchant's counter QR code, filmed by the buyer's camera, pays the merchant, whose modal shows it live", async () => {
    const { page: merchant } = await merchantOf('counter');
    await merchant.goto(`${peeks.server.url}/generate-qr-code`);
    await merchant.getByRole('heading', { name: 'Generate QR code', level: 1 }).waitFor();
    await atBothWidths(merchant, '64-generate-qr-form');
    await merchant.getByLabel('Amount').pressSequentially('7.5x');
    expect(await merchant.getByLabel('Amount').inputValue()).toBe('7.5');
    await merchant.getByLabel('Order / Sales / ID').fill('Table 7');
    await merchant.getByRole('button', { name: 'Create A Transaction' }).click();
    const modal = merchant.getByRole('dialog', { name: 'Scan To Pay' });
    await modal.locator('img.qr-code').waitFor();
    await modal.getByText('Waiting for the payment…').waitFor();
    await atBothWidths(merchant, '65-generate-qr-scan-to-pay');

    const folder = await mkdtemp(path.join(tmpdir(), 'peeks-camera-'));
    const video = path.join(folder, 'qr.y4m');
    await qrVideo(merchant, video);

    const buyerName = newcomer('scanner');
    const setup = await peeks.page();
    await setup.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(setup, buyerName);
    await fund(buyerName.username, 20_00, 'USD');
    const cookies = await setup.context().cookies();
    await setup.context().close();

    // A second Chromium whose camera films the code (the flags apply to a whole browser).
    const camera = await openBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      const context = await camera.newContext({ locale: 'en-US', viewport: { width: PHONE.width, height: 844 } });
      await context.addCookies(cookies);
      const buyer = await context.newPage();
      await buyer.goto(`${peeks.server.url}/scan-qr-code`);
      await buyer.waitForURL(/\/transfer-fund\?/, { timeout: 30_000 });
      const link = new URL(buyer.url());
      expect(link.searchParams.get('amt')).toBe('7.5');
      expect(link.searchParams.get('cur')).toBe('USD');
      const amount = buyer.getByRole('dialog', { name: 'Send A Money Transfer' });
      // The code was the merchant user's; the payment goes to the shop, named by its display name.
      await amount.getByText('Maple Coffee').first().waitFor();
      expect(await amount.getByLabel(/Amount/).inputValue()).toBe('7.5');
      await checkScreen(buyer, '66-scan-to-transfer-390');
      await amount.getByRole('button', { name: 'Send Money Transfer' }).click();
      await buyer
        .getByRole('dialog', { name: 'Confirm Transfer' })
        .getByRole('button', { name: 'Complete Transfer' })
        .click();
      await buyer.getByRole('dialog', { name: 'Transfer Completed' }).waitFor({ timeout: 15_000 });
    } finally {
      await camera.close();
      await rm(folder, { recursive: true, force: true });
    }

    // The merchant's modal, open all along, hears the payment.
    await modal.getByText('Payment received: $7.50 USD').waitFor({ timeout: 15_000 });
    await atBothWidths(merchant, '67-generate-qr-paid');
  });

  it("a merchant's USD QR is paid from coins, at the quote shown before confirming", async () => {
    const { page: merchant } = await merchantOf('dollars');
    await merchant.goto(`${peeks.server.url}/generate-qr-code`);
    await merchant.getByLabel('Amount').fill('4.75');
    await merchant.getByLabel('Order / Sales / ID').fill('Table 9');
    await merchant.getByRole('button', { name: 'Create A Transaction' }).click();
    const modal = merchant.getByRole('dialog', { name: 'Scan To Pay' });
    const code = modal.locator('img.qr-code');
    await code.waitFor();
    const photo = await code.screenshot();

    // Someone who holds coins only: the shop's dollars are paid from them.
    const buyerName = newcomer('coins');
    const buyer = await peeks.page();
    await buyer.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(buyer, buyerName);
    await fund(buyerName.username, 200_00, 'CON');
    await buyer.goto(`${peeks.server.url}/scan-qr-code`);
    await buyer.getByLabel('Pick an image of a QR code').setInputFiles({
      name: 'code.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    await buyer.waitForURL(/\/transfer-fund\?.*cur=USD/);
    const amount = buyer.getByRole('dialog', { name: 'Send A Money Transfer' });
    await amount.getByText('Maple Coffee').first().waitFor();
    await amount.getByRole('button', { name: 'Send Money Transfer' }).click();
    const confirm = buyer.getByRole('dialog', { name: 'Confirm Transfer' });
    await confirm.getByText('Table 9').waitFor();
    const quote = confirm.getByTestId('coin-quote');
    await quote.waitFor();
    // $4.75 at 20 coins a dollar, no fee, about a minute to confirm.
    expect(await quote.textContent()).toMatch(
      /^\$4\.75 USD = 95\.00 Coins · 20 Coins per USD · fee \$0\.00 USD · expires in \d+ s$/,
    );
    await atBothWidths(buyer, '66a-qr-paid-from-coins-quote');
    await confirm.getByRole('button', { name: 'Complete Transfer' }).click();
    await buyer.getByRole('dialog', { name: 'Transfer Completed' }).waitFor({ timeout: 15_000 });
    await atBothWidths(buyer, '66b-qr-paid-from-coins-done');

    // The shop hears dollars; the buyer's coins went down by the quote's 95.
    await modal.getByText('Payment received: $4.75 USD').waitFor({ timeout: 15_000 });
    const balance = await callFrom(buyer, 'GET', '/api/account/balance');
    const lines = (JSON.parse(balance.text) as { balance: { balances: { currency: string; balance: number }[] } })
      .balance.balances;
    expect(lines.find((line) => line.currency === 'CON')?.balance).toBe(200_00 - 95_00);
  });

  it('a picked image of a QR code works where there is no camera', async () => {
    const { page: merchant } = await merchantOf('picture');
    await merchant.goto(`${peeks.server.url}/generate-qr-code`);
    await merchant.getByLabel('Amount').fill('3');
    await merchant.getByRole('button', { name: 'Create A Transaction' }).click();
    const code = merchant.getByRole('dialog', { name: 'Scan To Pay' }).locator('img.qr-code');
    await code.waitFor();
    const photo = await code.screenshot();

    const buyer = await peeks.page(PHONE);
    await buyer.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(buyer, newcomer('picker'));
    await buyer.goto(`${peeks.server.url}/scan-qr-code`);
    await buyer.getByRole('heading', { name: 'Scan QR code', level: 1 }).waitFor();
    await atBothWidths(buyer, '68-scan-qr-no-camera');
    await buyer.getByLabel('Pick an image of a QR code').setInputFiles({
      name: 'code.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    await buyer.waitForURL(/\/transfer-fund\?.*amt=3/);
    expect(
      await buyer
        .getByRole('dialog', { name: 'Send A Money Transfer' })
        .getByLabel(/Amount/)
        .inputValue(),
    ).toBe('3');
  });

  it('a USD checkout paid from coins, at the quote shown beside Process My Payment', async () => {
    const { page: merchant } = await merchantOf('coincheckout');
    const created = await callFrom(merchant, 'POST', '/api/checkout/create-session', {
      cart: [{ sku: 'LATTE', name: 'Latte', price: 4_75 }],
      total: 4_75,
      currency: 'USD',
      success_url: 'https://shop.example.com/thanks',
    });
    expect(created.status, created.text).toBe(200);
    const { id, token } = JSON.parse(created.text) as { id: number; token: string };

    const who = newcomer('coinpayer');
    const buyer = await peeks.page();
    await buyer.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(buyer, who);
    await fund(who.username, 100_00, 'CON');
    await buyer.goto(`${peeks.server.url}/checkout?id=${String(id)}&token=${token}`);
    await buyer.getByRole('radio', { name: /Wallet balance 100\.00 Coins/ }).waitFor();
    await buyer.getByText('Paid from your coins at this quote, to Maple Coffee:').waitFor();
    const quote = buyer.getByTestId('coin-quote');
    await quote.waitFor();
    expect(await quote.textContent()).toMatch(/^\$4\.75 USD = 95\.00 Coins · 20 Coins per USD · fee \$0\.00 USD/);
    await atBothWidths(buyer, '71a-checkout-from-coins');
    await buyer.getByRole('button', { name: 'Process My Payment' }).click();
    const receipt = buyer.getByRole('region', { name: 'Payment received' });
    await receipt.getByText('$4.75 USD paid to Maple Coffee.').waitFor();
    await receipt.getByText('95.00 Coins').waitFor();
    await atBothWidths(buyer, '72a-checkout-from-coins-receipt');
  });

  it('a guest signs in on the checkout page, pays from the wallet once, and the webhook hears it, signed', async () => {
    const { page: merchant } = await merchantOf('checkout');
    const hook = await callFrom(merchant, 'POST', '/api/webhook/create-webhook', {
      state: 'enabled',
      url: receiver.url('/peeks'),
      events: ['purchase'],
    });
    expect(hook.status, hook.text).toBe(200);
    const { secret } = (JSON.parse(hook.text) as { data: { secret: string } }).data;
    const created = await callFrom(merchant, 'POST', '/api/checkout/create-session', {
      cart: [
        { sku: 'BEAN-1', name: 'Espresso beans', price: 14_00 },
        { sku: 'MUG-2', name: 'Travel mug', price: 9_50 },
      ],
      total: 23_50,
      currency: 'USD',
      success_url: 'https://shop.example.com/thanks',
    });
    expect(created.status, created.text).toBe(200);
    const { id, token } = JSON.parse(created.text) as { id: number; token: string };
    const link = `${peeks.server.url}/checkout?id=${String(id)}&token=${token}`;

    const who = newcomer('shopper');
    const buyer = await peeks.page();
    await buyer.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(buyer, who);
    await fund(who.username, 30_00, 'USD');
    await signOut(buyer);

    await buyer.goto(link);
    const login = buyer.getByRole('form', { name: 'Log in to pay' });
    await login.waitFor();
    await buyer.getByRole('table', { name: 'Cart' }).getByText('Espresso beans').waitFor();
    await atBothWidths(buyer, '70-checkout-guest');
    await login.getByLabel('Username/Email').fill(who.username);
    await login.getByLabel('Password').fill('not-the-password');
    await login.getByRole('button', { name: 'Log In' }).click();
    await login.getByText('Invalid Login').waitFor();
    await login.getByLabel('Password').fill(who.password);
    await login.getByRole('button', { name: 'Log In' }).click();

    const process = buyer.getByRole('button', { name: 'Process My Payment' });
    await buyer.getByRole('radio', { name: /Wallet balance \$30\.00 USD/ }).waitFor();
    await atBothWidths(buyer, '71-checkout-signed-in');
    await process.dblclick();
    const receipt = buyer.getByRole('region', { name: 'Payment received' });
    await receipt.getByText('$23.50 USD paid to Maple Coffee.').waitFor();
    await atBothWidths(buyer, '72-checkout-receipt');
    const txId = (await receipt.locator('.tx-id').textContent()) ?? '';

    // Paying again is refused: the page has nothing more to pay, the API moves nothing twice.
    await buyer.reload();
    await buyer.getByRole('region', { name: 'Already paid' }).waitFor();
    expect(await process.count()).toBe(0);
    await atBothWidths(buyer, '73-checkout-already-paid');
    const again = await callFrom(buyer, 'POST', '/api/checkout/pay', { id, token });
    expect(again.status, again.text).toBe(200);
    expect((JSON.parse(again.text) as { transaction: { tx_id: string } }).transaction.tx_id).toBe(txId);
    const balance = await callFrom(buyer, 'GET', '/api/account/balance');
    const usd = (
      JSON.parse(balance.text) as { balance: { balances: { currency: string; available_balance: number }[] } }
    ).balance.balances.find((line) => line.currency === 'USD');
    expect(usd?.available_balance).toBe(6_50);
    const stranger = await peeks.page();
    await stranger.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(stranger, newcomer('latecomer'));
    const late = await callFrom(stranger, 'POST', '/api/checkout/pay', { id, token });
    expect(late.status).toBe(404);
    await stranger.goto(link);
    await stranger.getByRole('region', { name: 'Already paid' }).waitFor();
    expect(await stranger.getByRole('button', { name: 'Process My Payment' }).count()).toBe(0);

    // The merchant's receiver hears the sale once, signed with the webhook's secret.
    await expect
      .poll(() => receiver.heard.filter((delivery) => delivery.body.includes(txId)).length, {
        timeout: 30_000,
        interval: 250,
      })
      .toBeGreaterThan(0);
    const deliveries = receiver.heard.filter((delivery) => delivery.body.includes(txId));
    expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    const [delivery] = deliveries;
    if (!delivery) return;
    expect(signedBy(secret, delivery)).toBe(true);
    expect(signedBy(`whsec_${Buffer.alloc(32).toString('base64')}`, delivery)).toBe(false);
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'purchase',
      data: { transaction_id: txId, amount: 23_50, currency: 'USD', memo: `checkout ${String(id)}` },
    });
  });
});
