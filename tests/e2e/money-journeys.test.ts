import { sql } from 'kysely';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { atBothWidths, callFrom, checkScreen, newcomer, signUpAsPerson } from './journey.ts';
import { DESKTOP, PHONE, stage } from './stage.ts';

/**
 * Money between two newcomers, each in their own browser, against npm start:
 * the sender adds the sandbox card and buys coins with it, adds the
 * recipient as a contact and sends part of the coins; the recipient's
 * wallet, open all along, shows them arrive without a reload. Add Fund shows
 * the coins before charging, and fresh loads of the money pages are never
 * refused for want of the CSRF token.
 */
const peeks = stage();
let sender: Page;
let recipient: Page;
const alice = newcomer('sender');
const bob = newcomer('recipient');

beforeAll(async () => {
  [sender, recipient] = await Promise.all([peeks.page(), peeks.page()]);
});

/** The signed-in person's coins, in hundredths, as the API counts them. */
async function coinsOf(page: Page): Promise<number> {
  const answer = await callFrom(page, 'GET', '/api/account/balance');
  const { balances } = (JSON.parse(answer.text) as { balance: { balances: { currency: string; balance: number }[] } })
    .balance;
  return balances.find((line) => line.currency === 'CON')?.balance ?? 0;
}

/** Coins as the screen writes them ("200.00 Coins") in hundredths. */
const shownCoins = (text: string | null) => Math.round(Number((text ?? '').replace(/[^\d.]/g, '')) * 100);

/** The spec's narrowest screen, 360 px: photographed, axe clean, nothing scrolls sideways; back to the laptop after. */
async function atNarrowest(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  await checkScreen(page, name);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  await page.setViewportSize(DESKTOP);
}

async function signUp(page: Page, who: typeof alice) {
  await page.goto(`${peeks.server.url}/register/personal`);
  await signUpAsPerson(page, who);
}

describe('two newcomers move money in the browser', { timeout: 120_000 }, () => {
  it('the recipient signs up and keeps the wallet open', async () => {
    await signUp(recipient, bob);
    await recipient.goto(`${peeks.server.url}/wallet`);
    await recipient.getByText('Live', { exact: true }).waitFor();
    expect(await recipient.getByTestId('balance-total').textContent()).toBe('0.00 Coins');
    await checkScreen(recipient, '20-recipient-wallet-empty');
  });

  it('the sender signs up, adds the sandbox card and buys coins with it', async () => {
    await signUp(sender, alice);
    await sender
      .getByRole('navigation', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Payment Methods' })
      .click();
    await sender.getByText('You have 0 Payment Methods.').waitFor();
    await checkScreen(sender, '21-payment-methods-empty');

    await sender.getByRole('button', { name: 'Add Payment Method' }).click();
    await sender.getByRole('menuitem', { name: 'Credit Card' }).click();
    const modal = sender.getByRole('dialog', { name: 'Add Credit Card' });
    await modal.getByLabel('First Name').fill('Alice');
    await modal.getByLabel('Last Name').fill('Martin');
    await modal.getByLabel('Address', { exact: true }).fill('100 Rideau St');
    await modal.getByLabel('City').fill('Ottawa');
    await modal.getByLabel('Country').selectOption('CA');
    await modal.getByLabel('Province').selectOption('ON');
    await modal.getByLabel('Postal/Zip Code').fill('K1N 5X8');
    await modal.getByLabel('Cardholder Name').fill('Alice Martin');
    const card = sender.frameLocator('iframe[title="Card details"]');
    await card.getByLabel('Card Number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry Month').selectOption('08');
    await card.getByLabel('Expiry Year').selectOption(String(new Date().getUTCFullYear() + 2));
    await card.getByLabel('CVV').fill('123');
    await card.getByRole('button', { name: 'Use this card' }).click();
    await modal.getByText(/Card ready: VISA/).waitFor();
    await checkScreen(sender, '22-add-credit-card');
    await modal.getByRole('button', { name: 'Save Card' }).click();
    await sender.getByText('You have 1 Payment Methods.').waitFor();

    await sender
      .getByRole('navigation', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Fund Wallet' })
      .click();
    const fund = sender.getByRole('dialog', { name: 'Add Fund' });
    await fund.getByLabel('Amount').fill('10');
    await fund.getByLabel('Payment Method').selectOption({ label: 'VISA ************4242' });
    // Issue 35: the coins are on screen, quoted, before the card is charged.
    const quoted = shownCoins(await fund.getByTestId('quote-get').textContent());
    expect(quoted, '$10 US at 20 coins a US dollar').toBe(200_00);
    expect(await fund.getByTestId('quote-pay').textContent()).toBe('$10.00 USD');
    await fund.getByText('$0.00 USD').waitFor();
    await atBothWidths(sender, '23-add-fund-quote');
    await atNarrowest(sender, '23-add-fund-quote-360');
    const before = await coinsOf(sender);
    await fund.getByRole('button', { name: 'Confirm Deposit' }).click();
    const success = sender.getByRole('dialog', { name: 'Success' });
    await success.getByText('Fund deposit successfully').waitFor();
    expect(await success.getByTestId('charged').textContent()).toBe('Visa •••• 4242 was charged $10.00 USD.');
    await checkScreen(sender, '24-add-fund-success');
    // The balance grows by exactly the coins quoted.
    expect((await coinsOf(sender)) - before).toBe(quoted);

    await sender.goto(`${peeks.server.url}/`);
    await expect
      .poll(() => sender.getByTestId('balance-available').textContent(), { timeout: 10_000 })
      .toBe('200.00 Coins');
    await checkScreen(sender, '25-sender-dashboard');
  });

  it('the sender adds the recipient as a contact', async () => {
    await sender
      .getByRole('navigation', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Contacts' })
      .click();
    await sender.getByText('You have 0 Contacts').waitFor();
    await checkScreen(sender, '26-contacts-empty');
    await sender.getByRole('button', { name: 'Invite A New Contact' }).click();
    const form = sender.getByRole('dialog', { name: 'Add New Contact' });
    await form.getByLabel('First Name').fill('Bob');
    await form.getByLabel('Last Name').fill('Gagnon');
    await form.getByLabel('Phone Number', { exact: true }).fill('6135550199');
    await form.getByLabel('Email', { exact: true }).fill(bob.email);
    await form.getByLabel('Confirm Email').fill(bob.email);
    await form.getByLabel('Address Line 1').fill('200 Elgin Street');
    await form.getByLabel('Country').selectOption('CA');
    await form.getByLabel('Province/State').fill('ON');
    await form.getByLabel('City').fill('Ottawa');
    await form.getByLabel('Postal/Zip Code').fill('K2P 1L5');
    await checkScreen(sender, '27-add-contact');
    await form.getByRole('button', { name: 'Save' }).click();
    await sender.getByRole('button', { name: /Bob Gagnon/ }).waitFor();
    await checkScreen(sender, '28-contacts');
  });

  it("sends coins to the contact, once, and the recipient's open wallet shows them without a reload", async () => {
    await sender.getByRole('button', { name: /Bob Gagnon/ }).click();
    const choice = sender.getByRole('dialog', { name: 'Bob Gagnon' });
    await choice.getByRole('button', { name: 'Send A Money Transfer' }).waitFor();
    await checkScreen(sender, '29-contact-choice');
    await choice.getByRole('button', { name: 'Send A Money Transfer' }).click();
    const amount = sender.getByRole('dialog', { name: 'Send A Money Transfer' });
    await amount.getByLabel('Amount').fill('5');
    await checkScreen(sender, '29-transfer-amount');
    await amount.getByRole('button', { name: 'Send Money Transfer' }).click();
    const confirmation = sender.getByRole('dialog', { name: 'Confirm Transfer' });
    await confirmation.getByRole('button', { name: 'Complete Transfer' }).waitFor();
    expect(await confirmation.getByRole('definition').allTextContents()).toEqual([
      bob.username,
      '5.00 Coins',
      '$0.00',
      '5.00 Coins',
    ]);
    await checkScreen(sender, '29-transfer-confirmation');
    // A double click is one transfer: one Idempotency-Key per attempt.
    await confirmation.getByRole('button', { name: 'Complete Transfer' }).dblclick();
    await sender.getByRole('dialog', { name: 'Transfer Completed' }).waitFor();
    await checkScreen(sender, '30-transfer-completed');

    await expect
      .poll(() => recipient.getByTestId('balance-total').textContent(), { timeout: 5_000 })
      .toBe('5.00 Coins');
    expect(await recipient.getByTestId('balance-hold').textContent()).toBe('5.00 Coins');
    await checkScreen(recipient, '31-recipient-wallet-live');

    const { rows } = await sql<{ transfers: string }>`
      SELECT count(*) AS transfers FROM ledger_transactions t JOIN users u ON t.payee_owner_id = 'user-' || u.user_id WHERE u.username = ${bob.username}
    `.execute(peeks.server.database.db);
    expect(Number(rows[0]?.transfers)).toBe(1);
  });

  it("the sender's coin breakdown lists the serials left after the split", async () => {
    await sender.goto(`${peeks.server.url}/wallet`);
    await sender.getByRole('button', { name: /^Coin Breakdown of / }).click();
    const breakdown = sender.getByRole('dialog', { name: 'Coin Breakdown' });
    await breakdown.getByRole('table').waitFor();
    await checkScreen(sender, '32-coin-breakdown');
    await sender.keyboard.press('Escape');
    await breakdown.waitFor({ state: 'detached' });
  });

  it('the sender finds both entries in /transaction, filters them, reads the serials and downloads the CSV', async () => {
    await sender
      .getByRole('navigation', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Transactions' })
      .click();
    const transactions = sender.getByRole('table', { name: 'Transactions' });
    await transactions.waitFor();
    // The purchase and the transfer, newest first.
    await expect.poll(() => transactions.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2);
    expect(await transactions.locator('tbody tr').first().textContent()).toContain('−5.00 Coins');
    await checkScreen(sender, '34-transactions');

    await sender.getByLabel('Type').selectOption({ label: 'Transfer' });
    await sender.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => transactions.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await sender.getByLabel('Type').selectOption({ label: 'Withdrawal' });
    await sender.getByRole('button', { name: 'Apply filters' }).click();
    await sender.getByText('No records found').waitFor();
    await checkScreen(sender, '35-transactions-filtered-empty');
    await sender.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => transactions.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2);

    const downloading = sender.waitForEvent('download');
    await sender.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await downloading;
    expect(csv.suggestedFilename()).toBe('transactions.csv');
    const text = await readFile(await csv.path(), 'utf8');
    expect(text.trim().split('\r\n')).toHaveLength(3);
    expect(text).toContain(',transfer,completed,D,-5.00,');
    // The CSV reconciles: its wallet changes add up to the balance, which the newest row's running balance shows.
    const [header = '', ...lines] = text.trim().split('\r\n');
    const columns = header.split(',');
    const cell = (line: string, name: string) => line.split(',')[columns.indexOf(name)] ?? '';
    const coins = lines.filter((line) => cell(line, 'currency') === 'CON');
    const total = coins.reduce((sum, line) => sum + Math.round(Number(cell(line, 'wallet_change')) * 100), 0);
    const { rows: wallets } = await sql<{ total: string }>`
      SELECT w.total FROM wallets w JOIN users u ON w.wallet_id = 'wallet:user-' || u.user_id || ':CON' WHERE u.username = ${alice.username}
    `.execute(peeks.server.database.db);
    expect(total).toBe(Number(wallets[0]?.total));
    expect(Math.round(Number(cell(coins[0] ?? '', 'running_balance')) * 100)).toBe(total);

    await sender.getByRole('tab', { name: 'Ledger' }).click();
    const ledger = sender.getByRole('table', { name: 'Ledger' });
    await ledger.getByText('P2P Sent').waitFor();
    await ledger
      .getByRole('button', { name: /^Details of / })
      .first()
      .click();
    const details = sender.getByRole('dialog', { name: 'Details' });
    const audit = details.getByRole('table', { name: 'Audit' });
    await audit.waitFor();
    expect(await audit.locator('tbody tr').count()).toBeGreaterThan(0);
    await checkScreen(sender, '36-ledger-details-audit');
    await sender.keyboard.press('Escape');

    // The same screen on a phone: rows become cards, nothing scrolls sideways.
    const phone = await peeks.page(PHONE, { storageState: await sender.context().storageState() });
    await phone.goto(`${peeks.server.url}/transaction`);
    await phone.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first().waitFor();
    expect(Number(await phone.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(PHONE.width);
    await checkScreen(phone, '37-transactions-phone');
    // A ledger entry's audit list becomes cards too, inside its dialog.
    await phone.getByRole('tab', { name: 'Ledger' }).click();
    await phone.getByRole('table', { name: 'Ledger' }).getByRole('button', { name: 'Details' }).first().click();
    await phone
      .getByRole('dialog', { name: 'Details' })
      .getByRole('table', { name: 'Audit' })
      .locator('tbody tr')
      .first()
      .waitFor();
    expect(Number(await phone.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(PHONE.width);
    await checkScreen(phone, '37-ledger-audit-phone');
    await atNarrowest(phone, '37-ledger-audit-360');
    await phone.context().close();
  });

  it("a transfer link naming nobody says 'User not found'", async () => {
    await sender.goto(`${peeks.server.url}/transfer-fund?gid=00000000-0000-4000-8000-000000000000&uid=1`);
    await sender.getByRole('dialog', { name: 'User not found' }).waitFor();
    await checkScreen(sender, '33-user-not-found');
  });

  it('12 fresh loads of the money pages, each in a fresh browser context, are never refused (no 403)', async () => {
    // A fresh context with the session's cookie and its cached user: the app's first reads race its CSRF token.
    const signedIn = await sender.context().storageState();
    const screens: Record<string, (page: Page) => Promise<void>> = {
      '/add-fund': (page) => page.getByRole('dialog', { name: 'Add Fund' }).getByLabel('Payment Method').waitFor(),
      '/transaction': (page) => page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first().waitFor(),
      '/payment-method-list': (page) => page.getByText('You have 1 Payment Methods.').waitFor(),
      '/': (page) => page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem').first().waitFor(),
    };
    const routes = Object.keys(screens);
    const refused: string[] = [];
    for (let load = 0; load < 12; load += 1) {
      const route = routes[load % routes.length] ?? '/';
      const page = await peeks.page(DESKTOP, { storageState: signedIn });
      page.on('response', (response) => {
        if (response.status() === 403) refused.push(`${route}: ${response.request().method()} ${response.url()}`);
      });
      await page.goto(`${peeks.server.url}${route}`);
      await screens[route]?.(page);
      expect(await page.getByText(/could not be loaded/).count(), route).toBe(0);
      await page.context().close();
    }
    expect(refused).toEqual([]);
  });
});
