import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot, seriousAccessibilityViolations } from './browser.ts';

/** Photographs the screen and expects no serious accessibility finding on it. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousAccessibilityViolations(page), name).toEqual([]);
}

/** The top bar's account menu shows who is signed in. */
export async function signedInAs(page: Page, name: string): Promise<void> {
  await expect
    .poll(() => page.getByRole('button', { name: /Account menu/ }).textContent(), { timeout: 15_000 })
    .toContain(name);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect.poll(() => page.getByRole('button', { name: /Account menu/ }).count(), { timeout: 15_000 }).toBe(0);
}

/**
 * The toast showing `text`, as seen: in the toasts' region ("Notifications
 * (F8)"). The live region that says it holds the same words, hidden. A
 * modal dialog hides the page, the toasts too, from the accessibility tree.
 */
export function toastSaying(page: Page, text: string) {
  return page.getByRole('region', { name: 'Notifications (F8)', includeHidden: true }).getByText(text, { exact: true });
}

export interface Newcomer {
  username: string;
  email: string;
  password: string;
}

/** A newcomer with a name no other run of the suite uses. */
export function newcomer(prefix: string): Newcomer {
  const username = `${prefix}${String(Date.now()).slice(-6)}`;
  return { username, email: `${username}@example.com`, password: 'first-Pass1' };
}

/** Fills the personal sign-up form (spec §4, §5) on /register/personal and submits it; the newcomer arrives signed in. */
export async function signUpAsPerson(page: Page, who: Newcomer): Promise<void> {
  await signUpWithAgreementPending(page, who);
  await acceptPendingAgreement(page);
}

/** The same sign-up, leaving the Terms and Conditions the dashboard then asks for pending. */
export async function signUpWithAgreementPending(page: Page, who: Newcomer): Promise<void> {
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Confirm Password').fill(who.password);
  await page.getByLabel('Birth Date').pressSequentially('01011990');
  expect(await page.getByLabel('Birth Date').inputValue()).toBe('01-01-1990');
  await page.getByLabel('Country').selectOption('CA');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await signedInAs(page, who.username);
}

/**
 * Accepts the agreement the dashboard asks for (spec §4): a newcomer has the
 * Terms and Conditions pending, and their dialog covers the page until then.
 */
export async function acceptPendingAgreement(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Accept', exact: true }) });
  await dialog.waitFor({ timeout: 30_000 });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** A JSON call of the API from inside the page, with its session cookie and CSRF token, as the app makes it. */
export async function callFrom(
  page: Page,
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  // After the page's own first requests: a cookieless GET /api/session racing the app's opens a second
  // session, and whichever cookie comes last may not match the CSRF token read here; a 403 reads it again.
  await page.waitForLoadState('networkidle');
  return page.evaluate(
    async ({ method, route, body }) => {
      const send = async () => {
        const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
        return fetch(route, {
          method,
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      };
      let response = await send();
      if (response.status === 403) response = await send();
      return { status: response.status, text: await response.text() };
    },
    { method, route, body },
  );
}

/** Photographs `name` at 1366 px and 390 px, each axe clean and without sideways scroll; back at 1366 px after. */
export async function atBothWidths(page: Page, name: string, widths: readonly number[] = [1366, 390]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await checkScreen(page, `${name}-${String(width)}`);
    // A string runs in the page: the tests compile without the DOM's types.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} at ${String(width)} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** A message a webhook receiver on loopback got: its headers and raw body. */
export interface Heard {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Whether `secret` signed this delivery (Standard Webhooks: HMAC-SHA256 of "id.timestamp.body"). */
export function signedBy(secret: string, delivery: Heard): boolean {
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = delivery.headers;
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return signature.split(' ').some((each) => {
    const given = Buffer.from(each.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
