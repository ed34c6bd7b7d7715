import { executeLedgerCommand } from '@peeks/ledger-store';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { atBothWidths, checkScreen, newcomer, signUpAsPerson, toastSaying } from './journey.ts';
import { PHONE, stage } from './stage.ts';

/**
 * The wallet's money screens of issue 22, against npm start: a newcomer adds
 * the sandbox card and buys coins (the default card chosen for them, the
 * success saying so and returning to the dashboard, whose recent activity
 * shows the purchase), saves a recipient with banking details on Add A
 * Recipient, sends them coins through Send Funds, withdraws to the card and
 * sees it processed, and finds the withdrawal in /transaction.
 */
// This journey withdraws the coins it has just bought by card: here they mature at once
// (card-funds-hold.test.ts shows them refused until they do).
const peeks = stage({ CARD_FUNDS_HOLD_HOURS: '0' });
let ann: Page;
let bob: Page;
const sender = newcomer('wallet');
const recipient = newcomer('payee');

beforeAll(async () => {
  [ann, bob] = await Promise.all([peeks.page(), peeks.page()]);
});

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name }).click();

/** The same screen on a phone, signed in as the same person: nothing scrolls sideways. */
async function onPhone(page: Page, route: string, name: string, open?: (phone: Page) => Promise<void>) {
  const phone = await peeks.page(PHONE, { storageState: await page.context().storageState() });
  await phone.goto(`${peeks.server.url}${route}`);
  await phone.getByRole('heading', { level: 1 }).first().waitFor();
  if (open) await open(phone);
  await phone.waitForLoadState('networkidle');
  expect(Number(await phone.evaluate('document.documentElement.scrollWidth')), route).toBeLessThanOrEqual(PHONE.width);
  await checkScreen(phone, name);
  await phone.context().close();
}

/**
 * The dashboard at a desk, a large phone and the smallest phone (issue 36):
 * axe clean, nothing scrolls sideways, and no figure breaks across lines
 * (each one's box is a single line high).
 */
async function dashboardAtEveryWidth(page: Page, name: string) {
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${peeks.server.url}/`);
    await page.getByTestId('balance-total').waitFor();
    await page.getByRole('list', { name: 'Recent activity' }).waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} at ${String(width)} px scrolls sideways`).toBeLessThanOrEqual(0);
    // A string runs in the page: the tests compile without the DOM's types.
    const wrapped = await page.evaluate<
      string[]
    >(`[...document.querySelectorAll('[data-testid^="balance-"]:not([data-testid="balance-card-funds"]), .activity-amounts > *')]
      .filter((figure) => {
        const style = getComputedStyle(figure);
        const line = style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.3 : parseFloat(style.lineHeight);
        return figure.getBoundingClientRect().height > line * 1.5;
      })
      .map((figure) => figure.textContent)`);
    expect(wrapped, `${name} at ${String(width)} px: figures on more than one line`).toEqual([]);
    await checkScreen(page, `${name}-${String(width)}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Adds the sandbox card 4242… as `first last`'s first payment method, through the tokenizer's frame. */
async function addSandboxCard(page: Page, first: string, last: string, shot?: string) {
  await nav(page, 'Payment Methods');
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  await page.getByRole('menuitem', { name: 'Credit Card' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Credit Card' });
  await modal.getByLabel('First Name').fill(first);
  await modal.getByLabel('Last Name').fill(last);
  await modal.getByLabel('Address', { exact: true }).fill('100 Rideau St');
  await modal.getByLabel('City').fill('Ottawa');
  await modal.getByLabel('Country').selectOption('CA');
  await modal.getByLabel('Province').selectOption('ON');
  await modal.getByLabel('Postal/Zip Code').fill('K1N 5X8');
  await modal.getByLabel('Cardholder Name').fill(`${first} ${last}`);
  const card = page.frameLocator('iframe[title="Card details"]');
  await card.getByLabel('Card Number').fill('4242 4242 4242 4242');
  await card.getByLabel('Expiry Month').selectOption('08');
  await card.getByLabel('Expiry Year').selectOption(String(new Date().getUTCFullYear() + 2));
  await card.getByLabel('CVV').fill('123');
  await card.getByRole('button', { name: 'Use this card' }).click();
  // The tokenizer says which card it kept instead of going blank.
  await card.getByText(/is ready/).waitFor();
  await modal.getByText(/Card ready: VISA/).waitFor();
  if (shot) await checkScreen(page, shot);
  await modal.getByRole('button', { name: 'Save Card' }).click();
  await page.getByText('You have 1 Payment Methods.').waitFor();
}

describe('the wallet money screens', { timeout: 120_000 }, () => {
  it('the recipient signs up', async () => {
    await bob.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(bob, recipient);
  });

  it('adds the sandbox card, buys coins with the default card, and returns to a dashboard with the activity', async () => {
    await ann.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(ann, sender);
    await addSandboxCard(ann, 'Ann', 'Lavoie', '50-tokenizer-styled');

    await nav(ann, 'Fund Wallet');
    const fund = ann.getByRole('dialog', { name: 'Add Fund' });
    await fund.getByLabel('Amount').fill('10');
    // The only card is chosen already.
    expect(await fund.getByLabel('Payment Method').inputValue()).not.toBe('');
    // The card is charged only at a quote the person has seen.
    expect(await fund.getByTestId('quote-get').textContent()).toBe('200.00 Coins');
    await fund.getByRole('button', { name: 'Confirm Deposit' }).click();
    await ann.getByRole('dialog', { name: 'Success' }).getByText('Fund deposit successfully').waitFor();
    // The page behind says it too; the modal keeps it from screen readers (and the focus) while it is open.
    await ann.getByRole('heading', { level: 1, name: 'Add Fund', includeHidden: true }).waitFor();
    await checkScreen(ann, '51-add-fund-success');
    // It returns to the dashboard by itself.
    await ann.waitForURL(`${peeks.server.url}/`, { timeout: 10_000 });
    const activity = ann.getByRole('list', { name: 'Recent activity' });
    await expect.poll(() => activity.getByRole('listitem').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // $10 US at 20 coins a US dollar.
    expect(await ann.getByTestId('balance-withdrawable').textContent()).toBe('200.00 Coins');
    await checkScreen(ann, '52-dashboard-activity');
    // Issue 36: one balance leads, with one primary action (Add money) and three others; available, on
    // hold, withdrawable and total each shown once; no merchant entries for a person without a merchant.
    const actions = ann.getByRole('region', { name: 'Your wallet' }).getByRole('group', { name: 'Wallet actions' });
    expect((await actions.locator('a, button').allInnerTexts()).map((text) => text.trim())).toEqual([
      'Add money',
      'Send',
      'Pay or scan',
      'Withdraw',
    ]);
    expect(await actions.locator('.primary').allInnerTexts()).toEqual(['Add money']);
    for (const figure of ['balance-available', 'balance-hold', 'balance-withdrawable', 'balance-total'])
      expect(await ann.getByTestId(figure).count(), figure).toBe(1);
    expect(await ann.getByText('Merchant Dashboard').count()).toBe(0);
    await dashboardAtEveryWidth(ann, '52-dashboard');
    await onPhone(ann, '/', '52-dashboard-activity-phone');
  });

  it('saves the recipient with banking details on Add A Recipient, then lands on /wallet', async () => {
    await nav(ann, 'Contacts');
    await ann.getByRole('link', { name: 'Add A Recipient' }).click();
    await ann.getByRole('heading', { level: 1, name: 'Add A Recipient' }).waitFor();
    await ann.getByLabel('First Name').fill('Bob');
    await ann.getByLabel('Last Name').fill('Gagnon');
    await ann.getByLabel('Phone Number', { exact: true }).fill('6135550199');
    await ann.getByLabel('Email', { exact: true }).fill(recipient.email);
    await ann.getByLabel('Confirm Email').fill(recipient.email);
    await ann.getByLabel('Address Line 1').fill('200 Elgin Street');
    await ann.getByLabel('Country').selectOption('CA');
    await ann.getByLabel('Province/State').fill('ON');
    await ann.getByLabel('City').fill('Ottawa');
    await ann.getByLabel('Postal/Zip Code').fill('K2P 1L5');
    await ann.getByLabel('Bank Name').fill('Banque Laurentienne');
    await ann.getByLabel('Institution Number').fill('039');
    await ann.getByLabel('Account Number').fill('1234567');
    await checkScreen(ann, '53-add-recipient');
    await ann.getByRole('button', { name: 'SAVE AND PROCEED' }).click();
    await ann.getByRole('status').filter({ hasText: 'Recipient saved' }).first().waitFor();
    await ann.waitForURL(`${peeks.server.url}/wallet`, { timeout: 10_000 });
    await onPhone(ann, '/add-recipient', '53-add-recipient-phone');
  });

  it('sends the recipient coins through Send Funds', async () => {
    await ann.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = ann.getByRole('dialog', { name: 'Sending Funds' });
    await dialog.getByLabel('Recipient').selectOption({ label: 'Bob Gagnon' });
    const card = dialog.getByRole('region', { name: 'Recipient' });
    expect(await card.getByRole('definition').allTextContents()).toEqual(['Bob Gagnon', 'Ottawa', 'Canada', '1234567']);
    // Above the balance: stopped before anything is sent.
    await dialog.getByLabel('Amount (Coins)').fill('400');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Insufficient funds').waitFor();
    await dialog.getByLabel('Amount (Coins)').fill('5');
    await checkScreen(ann, '54-send-funds');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await toastSaying(ann, 'Transfer Completed: 5.00 Coins sent to Bob Gagnon.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => bob.goto(`${peeks.server.url}/wallet`).then(() => bob.getByTestId('balance-total').textContent()), {
        timeout: 10_000,
      })
      .toBe('5.00 Coins');
    // The dashboard's recent activity names the person paid, not only the kind of movement.
    await ann.goto(`${peeks.server.url}/`);
    await ann
      .getByRole('list', { name: 'Recent activity' })
      .getByText(new RegExp(`^Transfer to .*@${recipient.username}`))
      .waitFor({ timeout: 10_000 });
    await ann.goto(`${peeks.server.url}/wallet`);
    await onPhone(ann, '/wallet', '54-send-funds-phone', async (phone) => {
      await phone.getByRole('button', { name: 'Send', exact: true }).click();
      await phone.getByRole('dialog', { name: 'Sending Funds' }).getByLabel('Recipient').waitFor();
    });
  });

  it('withdraws to the card, sees it processed, and finds it in /transaction', async () => {
    await ann.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const dialog = ann.getByRole('dialog', { name: 'Withdraw Funds' });
    await dialog.getByText('Withdrawable: 195.00 Coins').waitFor();
    // More than the balance, nothing on hold: the reason is the balance, not a hold.
    await dialog.getByLabel('Amount').fill('400');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Insufficient funds', { exact: true }).waitFor();
    expect(await dialog.getByText(/Insufficient withdrawable funds/).count()).toBe(0);
    await dialog.getByLabel('Amount').fill('2');
    await checkScreen(ann, '55-withdraw');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const confirm = ann.getByRole('dialog', { name: 'Confirm Withdrawal' });
    // Issue 35: the cash paid out, the rate, the fee and the destination by name, before confirming.
    expect(await confirm.getByTestId('quote-get').textContent()).toBe('$0.10 USD');
    expect(await confirm.getByRole('definition').allTextContents()).toEqual([
      '2.00 Coins',
      '$0.10 USD',
      '1 USD = 20 Coins',
      '0.00 Coins',
      'Visa •••• 4242',
    ]);
    await atBothWidths(ann, '55b-withdraw-quote');
    await confirm.getByRole('button', { name: 'Confirm Withdrawal' }).click();
    const state = ann.getByRole('dialog', { name: 'Withdrawal' });
    await state.waitFor();
    expect(await state.getByTestId('payout').textContent()).toBe('Visa •••• 4242 receives $0.10 USD.');
    // The sandbox payout runs in the worker; the live feed turns Entered into Processed.
    await state.getByText('Processed', { exact: true }).waitFor({ timeout: 30_000 });
    await checkScreen(ann, '56-withdraw-processed');
    await state.getByRole('link', { name: 'View in Transactions' }).click();
    await ann.getByLabel('Type').selectOption({ label: 'Withdrawal' });
    await ann.getByRole('button', { name: 'Apply filters' }).click();
    const table = ann.getByRole('table', { name: 'Transactions' });
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    expect(await table.locator('tbody tr').first().textContent()).toContain('−2.00 Coins');
    await checkScreen(ann, '57-transactions-withdrawal');
    await onPhone(ann, '/wallet', '55-withdraw-phone', async (phone) => {
      await phone.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await phone.getByRole('dialog', { name: 'Withdraw Funds' }).getByLabel('Amount').waitFor();
    });
  });

  it("the recipient's held coins say when they release, release, and are withdrawn to a card", async () => {
    await addSandboxCard(bob, 'Bob', 'Gagnon');
    await bob.goto(`${peeks.server.url}/`);
    const hold = bob.getByTestId('balance-hold').locator('xpath=..');
    await hold.getByText(/^Next release /).waitFor();
    expect(await bob.getByTestId('balance-withdrawable').textContent()).toBe('0.00 Coins');
    // Held coins from a person: the release time under On hold, the sender named in the activity.
    await bob
      .getByRole('list', { name: 'Recent activity' })
      .getByText(/^Transfer from /)
      .waitFor();
    await dashboardAtEveryWidth(bob, '58-dashboard-held');
    await hold.getByText(/^Next release /).waitFor();
    // The hold time passes: the ledger's own ReleaseHold, as the worker runs it when the time comes.
    const held = await peeks.server.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payee_owner_id', 'like', 'user-%')
      .where('hold_released_at', 'is', null)
      .where('hold_release_at', 'is not', null)
      .execute();
    expect(held).toHaveLength(1);
    const later = { holdHours: 24, now: () => new Date(Date.now() + 25 * 3_600_000) };
    await executeLedgerCommand(peeks.server.database.db, { type: 'ReleaseHold', txId: held[0]?.tx_id ?? '' }, later);
    // The open dashboard hears of it without a reload.
    await expect
      .poll(() => bob.getByTestId('balance-withdrawable').textContent(), { timeout: 10_000 })
      .toBe('5.00 Coins');
    expect(await hold.getByText(/^Next release /).count()).toBe(0);
    await bob.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const dialog = bob.getByRole('dialog', { name: 'Withdraw Funds' });
    await dialog.getByText('Withdrawable: 5.00 Coins').waitFor();
    await dialog.getByLabel('Amount').fill('3');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await bob
      .getByRole('dialog', { name: 'Confirm Withdrawal' })
      .getByRole('button', { name: 'Confirm Withdrawal' })
      .click();
    await bob
      .getByRole('dialog', { name: 'Withdrawal' })
      .getByText('Processed', { exact: true })
      .waitFor({ timeout: 30_000 });
    await checkScreen(bob, '58-recipient-withdraw-processed');
  });
});
