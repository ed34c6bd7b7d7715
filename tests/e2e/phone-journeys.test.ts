import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callFrom, checkScreen, newcomer, signUpAsPerson } from './journey.ts';
import { PHONE, stage } from './stage.ts';

/**
 * The app on a phone (390×844), against npm start: no route scrolls
 * sideways, each is axe clean, the balance is above the fold, the menu button
 * opens the navigation, and a signed-in person is never offered sign-in or
 * sign-up. Also the form defect of issue 22: the first click after an invalid
 * field used to be lost, because the field's message appeared on blur and
 * moved the button from under the pointer.
 */
const peeks = stage();
let phone: Page;
const who = newcomer('phone');

const GUEST_ROUTES = [
  '/login',
  '/register',
  '/register/personal',
  '/register/business',
  '/forgot-password',
  // A checkout link without its id and token: 'No such a transaction'.
  '/checkout',
];
const SIGNED_IN_ROUTES = [
  '/',
  '/wallet',
  '/transaction',
  '/contacts',
  '/add-recipient',
  '/payment-method-list',
  '/add-fund',
  '/profile',
  '/profile/personal',
  '/agreement',
  '/webhook',
  '/setting',
  '/scan-qr-code',
  '/generate-qr-code',
  '/checkout',
  // The deposit dialog's modals, opened over the dashboard by Add Funds.
  '/?deposit=choose',
  '/?deposit=interac',
  '/?deposit=zelle',
  '/?deposit=bitcoin',
  '/?deposit=pending',
];

beforeAll(async () => {
  phone = await peeks.page(PHONE);
});

/**
 * What sticks out past the right edge of the screen, innermost first (a
 * string evaluated in the page: this file is type-checked without the DOM's
 * types); empty when nothing scrolls sideways.
 */
const WIDER_THAN_SCREEN = `(() => {
  if (document.documentElement.scrollWidth <= window.innerWidth) return [];
  return [...document.querySelectorAll('body *')]
    .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter((element) => ![...element.children].some((child) => child.getBoundingClientRect().right > window.innerWidth + 0.5))
    .slice(0, 5)
    .map((element) => element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '') + ' ' + Math.round(element.getBoundingClientRect().right) + 'px');
})()`;

/** A route as part of a screenshot's name: `/?deposit=choose` is `-deposit-choose`. */
const fileName = (route: string) => route.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '');

const widerThanScreen = (page: Page) => page.evaluate<string[]>(WIDER_THAN_SCREEN);

/**
 * Column headers whose words do not sit on one line: a shown header's text
 * whose line boxes (a Range's client rects) fall on more than one line, and a
 * card's column label (`td::before`, not measurable) that may break inside a word.
 */
const HEADERS_BROKEN = `(() => {
  const shown = (element) => element.getClientRects().length > 0 && element.getBoundingClientRect().width > 1;
  const headers = [...document.querySelectorAll('th')]
    .filter((th) => shown(th) && shown(th.closest('thead') ?? th))
    .filter((th) => {
      // The text shown (a visually hidden tooltip, 1 px and clipped, is not), in line boxes:
      // boxes that overlap vertically share a line (a smaller "?" mark sits a little lower).
      const rects = [];
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!text.parentElement || !shown(text.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const rect of range.getClientRects()) if (rect.width > 0) rects.push(rect);
      }
      rects.sort((a, b) => a.top - b.top);
      let lines = 0;
      let bottom = -Infinity;
      for (const rect of rects) {
        if (rect.top >= bottom - 1) lines += 1;
        bottom = Math.max(bottom, rect.bottom);
      }
      return lines > 1;
    })
    .map((th) => 'th ' + th.textContent);
  const labels = [...document.querySelectorAll('td[data-label]')]
    .filter((td) => shown(td) && getComputedStyle(td, '::before').content !== 'none')
    .filter((td) => {
      const label = getComputedStyle(td, '::before');
      return label.whiteSpace !== 'nowrap' && (label.overflowWrap !== 'normal' || label.wordBreak === 'break-all' || label.hyphens === 'auto');
    })
    .map((td) => 'label ' + td.dataset.label);
  return [...new Set([...headers, ...labels])];
})()`;
const headersBroken = (page: Page) => page.evaluate<string[]>(HEADERS_BROKEN);

/** How tall the top bar stands. */
const headerHeight = async (page: Page) => (await page.locator('.top-bar').boundingBox())?.height ?? Infinity;

/** At 390 and 360 px: no sideways scroll, a top bar of at most 64 px, headers whole, axe clean; photographed. */
async function checkNarrow(page: Page, name: string) {
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: PHONE.height });
    expect(await widerThanScreen(page), `${name} at ${String(width)} px scrolls sideways`).toEqual([]);
    expect(await headerHeight(page), `${name}: the top bar at ${String(width)} px`).toBeLessThanOrEqual(64);
    expect(await headersBroken(page), `${name}: headers at ${String(width)} px`).toEqual([]);
    await checkScreen(page, `${name}-${String(width)}`);
  }
  await page.setViewportSize(PHONE);
}

async function checkRoute(route: string, name: string) {
  await phone.goto(`${peeks.server.url}${route}`);
  await phone.getByRole('heading').first().waitFor();
  await phone.waitForLoadState('networkidle');
  expect(await widerThanScreen(phone), `${route} scrolls sideways`).toEqual([]);
  expect(Number(await phone.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(PHONE.width);
  await checkScreen(phone, name);
}

describe('the app on a phone', { timeout: 180_000 }, () => {
  it.each(GUEST_ROUTES)('%s does not scroll sideways and is axe clean', { timeout: 60_000 }, async (route) => {
    await checkRoute(route, `40-phone${fileName(route)}`);
  });

  it('a guest sees a one-row top bar with Log In and Sign Up and no account links', async () => {
    await phone.goto(`${peeks.server.url}/login`);
    const bar = phone.getByRole('banner');
    await bar.getByRole('link', { name: 'Sign Up' }).waitFor();
    expect(await bar.getByRole('link').allTextContents()).toEqual(['Peeks Wallet', 'Log In', 'Sign Up']);
    expect(await bar.getByRole('button').count()).toBe(0);
    await checkNarrow(phone, '44-phone-header-guest');
  });

  it('the first click after an invalid field lands: the error line is kept, nothing moves', async () => {
    await phone.goto(`${peeks.server.url}/register/personal`);
    const signUp = phone.getByRole('button', { name: 'Sign up' });
    const before = await signUp.boundingBox();
    await phone.getByLabel('Email').fill('bad');
    // Pressing the button blurs Email, whose message appears as the click happens.
    await signUp.click();
    expect(await phone.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await signUp.boundingBox()).toEqual(before);
    // The click submitted the form: Username, never touched, now says what it needs.
    await phone.getByText('Please enter Username').waitFor({ timeout: 5_000 });
    await checkScreen(phone, '40-phone-first-click-lands');
  });

  it('signs up; the balance is above the fold and comes before the navigation', async () => {
    await phone.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(phone, who);
    await phone.goto(`${peeks.server.url}/`);
    const balance = phone.getByTestId('balance-available');
    await balance.waitFor();
    const box = await balance.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(await phone.getByRole('navigation', { name: 'Dashboard navigation' }).isVisible()).toBe(false);
    const logo = await phone.getByRole('link', { name: 'Peeks Wallet' }).boundingBox();
    expect(logo?.height, '"Peeks Wallet" on one line').toBeLessThan(40);
    // The top bar is one row; MY ACCOUNT and ADD FUNDS wait in the drawer (Edit profile, Fund wallet).
    expect(await phone.getByRole('navigation', { name: 'MY ACCOUNT' }).isVisible()).toBe(false);
    await checkScreen(phone, '41-phone-dashboard');
  });

  it('the menu button opens the navigation as a drawer; Escape closes it, a link closes it', async () => {
    const menu = phone.getByRole('button', { name: 'Menu', exact: true });
    await menu.click();
    const navigation = phone.getByRole('navigation', { name: 'Dashboard navigation' });
    await navigation.waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await checkScreen(phone, '42-phone-menu-open');
    await phone.keyboard.press('Escape');
    await navigation.waitFor({ state: 'hidden' });
    expect(String(await phone.evaluate('document.activeElement?.textContent'))).toContain('Menu');
    await menu.click();
    await navigation.getByRole('link', { name: 'Contacts' }).click();
    await phone.waitForURL(/\/contacts$/);
    await navigation.waitFor({ state: 'hidden' });
  });

  it.each(SIGNED_IN_ROUTES)(
    'signed in, %s does not scroll sideways and is axe clean',
    { timeout: 60_000 },
    async (route) => {
      await checkRoute(route, `43-phone${route === '/' ? '-home' : fileName(route)}`);
    },
  );

  it('signed in, the top bar is one row: menu, logo and the account menu', async () => {
    await phone.goto(`${peeks.server.url}/`);
    await phone.getByTestId('balance-available').waitFor();
    const bar = phone.getByRole('banner');
    expect(await bar.getByRole('button', { name: 'Menu', exact: true }).isVisible()).toBe(true);
    expect(await bar.getByRole('button', { name: /Account menu/ }).isVisible()).toBe(true);
    await checkNarrow(phone, '45-phone-header-signed-in');
  });

  it('/transaction keeps its filters behind a Filters button that counts those applied', async () => {
    // A pending Interac deposit gives the lists a row, so the tables show.
    const deposit = await callFrom(phone, 'POST', '/api/account/deposit-interac', { amount: 50 });
    expect(deposit.status, deposit.text).toBe(200);
    await phone.goto(`${peeks.server.url}/transaction`);
    const toggle = phone.getByRole('button', { name: 'Filters', exact: true });
    await toggle.waitFor();
    await phone.getByRole('table', { name: 'Transactions' }).waitFor();
    await phone.waitForLoadState('networkidle');
    const filters = phone.getByRole('form', { name: 'Filters' });
    expect(await filters.isVisible()).toBe(false);
    const first = await phone.getByRole('table', { name: 'Transactions' }).boundingBox();
    expect(first && first.y, 'the first row starts on the first screen').toBeLessThan(PHONE.height / 2);
    await checkNarrow(phone, '46-phone-transaction-filters-closed');

    await toggle.focus();
    await phone.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await filters.waitFor();
    await checkNarrow(phone, '46-phone-transaction-filters-open');

    await filters.getByLabel('Currency').selectOption('CON');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const counted = phone.getByRole('button', { name: 'Filters (1 active)' });
    await counted.waitFor();
    expect(await filters.isVisible()).toBe(false);
    expect(String(await phone.evaluate('document.activeElement?.textContent'))).toContain('Filters');
    await checkNarrow(phone, '46-phone-transaction-filters-applied');
    await counted.click();
    await filters.getByRole('button', { name: 'Clear' }).click();
    await toggle.waitFor();

    // A row's Details, in a dialog that fits the phone too.
    await phone.getByRole('table', { name: 'Transactions' }).getByRole('button').first().click();
    await phone.getByRole('dialog', { name: 'Details' }).waitFor();
    await phone.waitForLoadState('networkidle');
    await checkNarrow(phone, '46-phone-transaction-details');
  });

  it('a signed-in person opening /login or /register goes home, and the avatar menu offers neither', async () => {
    for (const route of ['/login', '/register', '/register/personal']) {
      await phone.goto(`${peeks.server.url}${route}`);
      await expect.poll(() => new URL(phone.url()).pathname, { timeout: 15_000 }).toBe('/');
    }
    await phone.getByRole('button', { name: /Account menu/ }).click();
    const menu = phone.getByRole('menu');
    await menu.waitFor();
    const links = await menu.getByRole('menuitem').allTextContents();
    expect(links).toEqual(['Wallet', 'Profile', 'Agreement', 'Webhook', 'Sign Out']);
  });
});
