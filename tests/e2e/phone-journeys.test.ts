import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkScreen, newcomer, signUpAsPerson } from './journey.ts';
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
    const top = phone.getByRole('navigation', { name: 'MY ACCOUNT' });
    expect(await top.getByRole('link', { name: 'MY ACCOUNT' }).isVisible()).toBe(true);
    expect(await top.getByRole('link', { name: 'ADD FUNDS' }).isVisible()).toBe(true);
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

  it('a signed-in person opening /login or /register goes home, and the avatar menu offers neither', async () => {
    for (const route of ['/login', '/register', '/register/personal']) {
      await phone.goto(`${peeks.server.url}${route}`);
      await expect.poll(() => new URL(phone.url()).pathname, { timeout: 15_000 }).toBe('/');
    }
    await phone.getByRole('button', { name: /Account menu/ }).click();
    const links = await phone.locator('.account-dropdown a').allTextContents();
    expect(links).toEqual(['Wallet', 'Profile', 'Agreement', 'Webhook', 'Sign Out']);
  });
});
