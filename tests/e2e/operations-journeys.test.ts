import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './browser.ts';
import { checkScreen, newcomer, signUpAsPerson, toastSaying } from './journey.ts';
import { startPeeks, type PeeksServer } from './peeks-server.ts';

/**
 * The finance operations console against npm start: a person makes an
 * Interac deposit and keeps the wallet open; an operator (a newcomer
 * promoted the way `npm run operator:create` does) sees the overview's
 * charts, clears the deposit (a wrong amount first, then a double click),
 * and the person's wallet shows the coins without a reload; the operator
 * traces the minted coin, runs ledger verification, and reads the event
 * log and the person's page. A correction over the approval limit waits
 * for a second operator, who approves it, and the person's balance changes.
 * The person gets the not-found page at
 * /operations and 403 from the API. Each screen photographed at 1280 px,
 * the main ones again at 390 and 360 px, and checked with axe; no console
 * page scrolls sideways at 360 px.
 */
let server: PeeksServer;
let browser: Browser;
let person: Page;
let operator: Page;
const ann = newcomer('depositor');
const fin = newcomer('finance');
const second = newcomer('approver');

beforeAll(async () => {
  [server, browser] = await Promise.all([startPeeks(), openBrowser()]);
  const newPage = async () =>
    (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } })).newPage();
  [person, operator] = await Promise.all([newPage(), newPage()]);
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** A JSON call from the page, with its session and CSRF token, as the app makes it. */
async function callFrom(page: Page, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: await response.json() };
    },
    { path, body },
  );
}

const DESKTOP = { width: 1280, height: 900 };
const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 780 },
] as const;

/** Whether the page scrolls sideways: a string, not a function, as tests/ has no DOM types. */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

/** At 390 and 360 px: no sideways scroll, a screenshot (name-390, name-360) and axe; then back to the desktop. */
async function atPhoneWidth(page: Page, name: string) {
  for (const viewport of PHONES) {
    await page.setViewportSize(viewport);
    // Polled: the charts measure their box again a moment after the window narrows (recharts' ResponsiveContainer),
    // as they would on a phone turned from landscape.
    await expect
      .poll(() => scrollsSideways(page), {
        message: `${name} scrolls sideways at ${String(viewport.width)} px`,
        timeout: 5_000,
      })
      .toBe(false);
    await checkScreen(page, `${name}-${String(viewport.width)}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** A search form's button stands on its input's baseline: their bottoms within a pixel. */
async function expectButtonBesideInput(page: Page, label: string, button: string) {
  const input = await page.getByLabel(label, { exact: true }).boundingBox();
  const pressed = await page.getByRole('button', { name: button, exact: true }).boundingBox();
  if (!input || !pressed) throw new Error(`${label} and ${button} are on the screen`);
  expect(Math.abs(input.y + input.height - (pressed.y + pressed.height))).toBeLessThanOrEqual(1);
}

describe('a finance operator works the console', { timeout: 180_000 }, () => {
  let reference = '';

  it('a person makes an Interac deposit, keeps the wallet open, and finds no console', async () => {
    await person.goto(`${server.url}/register/personal`);
    await signUpAsPerson(person, ann);
    const deposit = await callFrom(person, '/api/account/deposit-interac', { amount: 50 });
    expect(deposit.status).toBe(200);
    const row = await server.database.db
      .selectFrom('ledger_transactions')
      .select('reference')
      .where('tx_class', '=', 'DepositEntered')
      .executeTakeFirstOrThrow();
    reference = row.reference ?? '';
    expect(reference).not.toBe('');

    await person.goto(`${server.url}/operations`);
    await person.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await checkScreen(person, '50-operations-not-found');
    expect((await callFrom(person, '/api/operations/overview')).status).toBe(403);
    await person.goto(`${server.url}/wallet`);
    await person.getByText('Live', { exact: true }).waitFor();
  });

  it('the operator sees the overview with charts from the history', async () => {
    await operator.goto(`${server.url}/register/personal`);
    await signUpAsPerson(operator, fin);
    await sql`UPDATE users SET role = 'finance' WHERE username = ${fin.username}`.execute(server.database.db);
    // Signed in again as the operator they now are: the sign-in lands on the console.
    await operator.goto(`${server.url}/login/logout`);
    await operator.getByRole('button', { name: 'Access My Account' }).waitFor();
    await operator.getByLabel('Email or username').fill(fin.username);
    await operator.getByLabel('Password').fill(fin.password);
    await operator.getByRole('button', { name: 'Access My Account' }).click();
    await operator.waitForURL(`${server.url}/operations`);
    await operator.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await operator.getByRole('heading', { name: 'Deposits by state' }).waitFor();
    await expect
      .poll(() => operator.locator('.recharts-bar-rectangle').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await checkScreen(operator, '51-operations-overview');
    await atPhoneWidth(operator, '51-operations-overview');
  });

  it("clears the person's deposit, refused first in words, once for a double click; the wallet updates live", async () => {
    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'Deposits' })
      .click();
    const row = operator.getByRole('row').filter({ hasText: reference });
    await row.getByRole('button', { name: 'Clear' }).click();
    const dialog = operator.getByRole('dialog', { name: `Clear deposit ${reference}` });
    await dialog.getByLabel('Amount received').fill('49.99');
    await dialog.getByLabel('Memo', { exact: true }).fill(reference);
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/The amount received does not match the deposit/)
      .waitFor();
    await checkScreen(operator, '52-operations-clear-mismatch');

    await dialog.getByLabel('Amount received').fill('50');
    await dialog.getByRole('button', { name: 'Clear' }).dblclick();
    await toastSaying(operator, 'Deposit cleared').waitFor();
    await operator.getByText('No pending deposits').waitFor();
    await checkScreen(operator, '53-operations-deposits-done');
    await atPhoneWidth(operator, '53-operations-deposits');

    const cleared = await server.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('type', '=', 'DepositCleared')
      .executeTakeFirstOrThrow();
    expect(cleared.count).toBe(1);
    await expect
      .poll(() => person.getByTestId('balance-total').textContent(), { timeout: 15_000 })
      .not.toBe('0.00 Coins');
  });

  it("traces the person's coin through a split to its mint", async () => {
    // The person pays the operator part of a coin: the change they keep is a split of the minted coin.
    const session = (await callFrom(operator, '/api/session')).json as { user: { guser_id: string } };
    const paid = await callFrom(person, '/api/account/send-fund', { guser_id: session.user.guser_id, amount: 123 });
    expect(paid.status).toBe(200);
    const coin = await server.database.db
      .selectFrom('coins')
      .select('serial')
      .where('holder', 'like', 'wallet:user-%')
      .where('status', '=', 'held')
      .where('parent_serial', 'is not', null)
      .executeTakeFirstOrThrow();
    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'Coin trail' })
      .click();
    await operator.getByLabel('Serial').fill(coin.serial);
    await operator.getByRole('button', { name: 'Trace' }).click();
    // Steps in words, coins in units: never the ledger's "MINT 156000".
    await operator
      .getByText(/^Split \d[\d,]*\.\d\d Coins · /)
      .first()
      .waitFor();
    await operator
      .getByText(/^Minted \d[\d,]*\.\d\d Coins · /)
      .first()
      .waitFor();
    expect(await operator.getByText(/^(MINT|SPLIT) \d/).count()).toBe(0);
    await expectButtonBesideInput(operator, 'Serial', 'Trace');
    await checkScreen(operator, '54-operations-coin-trail');
    await atPhoneWidth(operator, '54-operations-coin-trail');
  });

  it('runs ledger verification and sees it pass', async () => {
    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'Overview' })
      .click();
    await operator.getByRole('button', { name: 'Run' }).click();
    await operator.getByText(/^Passed: started/).waitFor({ timeout: 60_000 });
    await checkScreen(operator, '55-operations-verify-passed');
  });

  it('reads the event log and the person', async () => {
    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'Event log' })
      .click();
    await operator.getByText('DepositCleared').first().waitFor();
    expect(await operator.getByText('link broken').count()).toBe(0);
    await operator.getByText('Positions skip after a restart; the hash chain links each stream.').waitFor();
    // Every row carries its time.
    const rows = operator.locator('.event-row');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.locator('time').count()).toBe(await rows.count());
    await expectButtonBesideInput(operator, 'Type', 'Filter');
    await checkScreen(operator, '56-operations-event-log');
    await atPhoneWidth(operator, '56-operations-event-log');

    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'People' })
      .click();
    await operator.getByLabel('Username or E-mail').fill(ann.username);
    await expectButtonBesideInput(operator, 'Username or E-mail', 'Find');
    await operator.getByRole('button', { name: 'Find' }).click();
    await operator.getByRole('link', { name: ann.username }).click();
    await operator.getByRole('heading', { name: 'Wallets' }).waitFor();
    await checkScreen(operator, '57-operations-person');
    await atPhoneWidth(operator, '57-operations-person');
  });

  it('asks for a correction over the approval limit; a second operator approves it and the balance changes', async () => {
    const { user_id: annId } = await server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', ann.username)
      .executeTakeFirstOrThrow();
    const coins = async () =>
      (
        await server.database.db
          .selectFrom('wallets')
          .select('total')
          .where('owner_id', '=', `user-${String(annId)}`)
          .where('currency', '=', 'CON')
          .executeTakeFirstOrThrow()
      ).total;
    const before = await coins();

    await operator
      .getByRole('navigation', { name: 'Operations console' })
      .getByRole('link', { name: 'Corrections' })
      .click();
    await operator.getByText('No corrections waiting for approval').waitFor();
    // The person by part of their e-mail, picked from the suggestions; the amount in coin units.
    await operator.getByLabel('Person (username or e-mail)').fill(ann.email.slice(0, 8));
    await operator.getByRole('list', { name: 'People found' }).getByRole('button', { name: ann.username }).click();
    await operator.getByText(`${ann.username} · ${ann.email}`).waitFor();
    const available = `${(before / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} Coins`;
    // More than they have, taken away: refused under the amount before anything is posted.
    await operator.getByLabel('Amount in Coins').fill(`-${String(before / 100 + 1)}`);
    await operator.getByLabel('Reason').fill('Refund of a double charge');
    await operator.getByRole('button', { name: 'Review' }).click();
    await operator.getByText(`This would take the balance below zero: ${available} available.`).waitFor();
    expect(await operator.getByRole('dialog').count()).toBe(0);
    // 20,000.00 coins: over the default approval limit of 10,000.00.
    await operator.getByLabel('Amount in Coins').fill('20000');
    const after = `${(before / 100 + 20_000).toLocaleString('en-US', { minimumFractionDigits: 2 })} Coins`;
    await operator.getByText(`Available now: ${available}. After the correction: ${after}.`).waitFor();
    await checkScreen(operator, '58-operations-correction-preview');
    await atPhoneWidth(operator, '58-operations-correction-preview');
    await operator.getByRole('button', { name: 'Review' }).click();
    const confirm = operator.getByRole('dialog', { name: 'Confirm the correction' });
    await confirm.getByText(`The balance goes from ${available} to ${after}.`).waitFor();
    await confirm.getByRole('button', { name: 'Post correction' }).click();
    await toastSaying(operator, 'Correction sent to another finance operator for approval').waitFor();
    const mine = operator.getByRole('table', { name: 'Corrections waiting for approval' }).getByRole('row').nth(1);
    await mine.getByText('Waiting for another operator').waitFor();
    expect(await mine.getByRole('button').count()).toBe(0);
    expect(await coins()).toBe(before);
    await checkScreen(operator, '58-operations-correction-pending');

    const approver = await (await browser.newContext({ locale: 'en-US', viewport: DESKTOP })).newPage();
    await approver.goto(`${server.url}/register/personal`);
    await signUpAsPerson(approver, second);
    await sql`UPDATE users SET role = 'finance' WHERE username = ${second.username}`.execute(server.database.db);
    await approver.goto(`${server.url}/operations/corrections`);
    const row = approver
      .getByRole('table', { name: 'Corrections waiting for approval' })
      .getByRole('row')
      .filter({ hasText: fin.username });
    await row.getByRole('button', { name: 'Approve' }).waitFor();
    await atPhoneWidth(approver, '59-operations-correction-approve');
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = approver.getByRole('dialog', { name: 'Approve the correction' });
    await dialog.getByText(`as ${fin.username} asked?`, { exact: false }).waitFor();
    await checkScreen(approver, '59-operations-correction-approve');
    await dialog.getByRole('button', { name: 'Approve' }).dblclick();
    await approver.getByText('Correction approved and posted').first().waitFor();
    await approver.getByText('No corrections waiting for approval').waitFor();
    expect(await coins()).toBe(before + 2_000_000);

    const events = await server.database.db
      .selectFrom('events')
      .select(['type', sql<string>`metadata->>'actor'`.as('actor')])
      .where('type', 'in', ['CorrectionRequested', 'CorrectionApproved'])
      .orderBy('position')
      .execute();
    const { user_id: finId } = await server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', fin.username)
      .executeTakeFirstOrThrow();
    expect(events.map((event) => event.type)).toEqual(['CorrectionRequested', 'CorrectionApproved']);
    expect(events[0]?.actor).toBe(`user-${String(finId)}`);
    expect(events[1]?.actor).not.toBe(events[0]?.actor);
  });

  it('the overview, later: platform balances as account and figure, holds in one unit per chart', async () => {
    // The balances come from an asynchronous projection: read the page again until it has caught up.
    await expect
      .poll(
        async () => {
          await operator.goto(`${server.url}/operations`);
          await operator.getByText(/^(Caught up at|Not caught up yet)/).waitFor();
          return operator.locator('.balance-sheet dt').count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    expect(await operator.locator('.balance-sheet').getByText('E-mail transfer funding').count()).toBeGreaterThan(0);
    // Holds releasing: a chart per currency, each with one value axis, named in that currency alone.
    const holds = operator.getByRole('region', { name: 'Holds releasing in the next 24 hours' });
    const charts = holds.getByRole('figure');
    await expect.poll(() => charts.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const chart of await charts.all()) {
      const caption = (await chart.locator('figcaption').innerText()).trim();
      expect(await chart.locator('.recharts-yAxis').count(), caption).toBe(1);
      expect(await chart.locator('.recharts-label').allTextContents(), caption).toEqual([
        caption.replace(/ releasing, by hour$/, ''),
      ]);
    }
    await checkScreen(operator, '60-operations-overview-later');
    await atPhoneWidth(operator, '60-operations-overview-later');
  });

  it('no console page scrolls sideways at 360 px', async () => {
    await operator.setViewportSize(PHONES[1]);
    for (const section of ['', 'deposits', 'withdrawals', 'corrections', 'coins', 'events', 'ledger-log', 'people']) {
      await operator.goto(`${server.url}/operations${section === '' ? '' : `/${section}`}`);
      await operator.getByRole('navigation', { name: 'Operations console' }).waitFor();
      await operator.locator('main h1').first().waitFor();
      await expect
        .poll(() => scrollsSideways(operator), { message: `/operations/${section} scrolls sideways`, timeout: 5_000 })
        .toBe(false);
    }
    await operator.setViewportSize(DESKTOP);
  });
});
