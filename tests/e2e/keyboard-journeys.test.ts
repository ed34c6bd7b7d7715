import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { atBothWidths, newcomer, signUpWithAgreementPending, toastSaying } from './journey.ts';
import { PHONE, stage } from './stage.ts';

/**
 * Issue 36 item 6's journeys against npm start, from the keyboard alone: the
 * pending Terms and Conditions left with Escape (it offers Skip); the "Add
 * Payment Method" menu walked with the arrow keys, closed with Escape, an
 * entry's dialog keeping Tab inside and giving the focus back to the menu
 * button; the profile's tabs moved with the arrow keys in a strip that
 * shows, on a phone, that it scrolls; the Holds tooltip on focus and hover;
 * the account menu walked with the arrow keys, its language chosen from the
 * keyboard, and Sign Out's toast said in the live region, reached with F8
 * and dismissed with Escape. Each screen photographed at 1280 px and 390 px and checked with axe.
 */
const peeks = stage();

/** What has the focus: its role and its text, read in the page (the tests compile without the DOM's types). */
const focused = (page: Page) =>
  page.evaluate<string>(
    `(() => { const e = document.activeElement; return e ? (e.getAttribute('role') ?? e.tagName.toLowerCase()) + ': ' + (e.textContent ?? '').trim() : ''; })()`,
  );
const focusInDialog = (page: Page) => page.evaluate<boolean>(`!!document.activeElement?.closest('[role="dialog"]')`);

const atDeskAndPhone = (page: Page, name: string) => atBothWidths(page, name, [1280, 390]);

let person: Page;

describe('menus, dialogs, tabs and tooltips from the keyboard', { timeout: 240_000 }, () => {
  it('the pending Terms and Conditions offer Skip, so Escape skips them', async () => {
    person = await peeks.page();
    await person.goto(`${peeks.server.url}/register/personal`);
    await signUpWithAgreementPending(person, newcomer('keys'));
    const terms = person.getByRole('dialog').filter({ has: person.getByRole('button', { name: 'Skip', exact: true }) });
    await terms.waitFor({ timeout: 30_000 });
    expect(await focusInDialog(person), 'the focus moves into the dialog').toBe(true);
    await person.keyboard.press('Escape');
    await terms.waitFor({ state: 'detached' });
    // Skipped, the dashboard is usable again.
    await person
      .getByRole('navigation', { name: 'Dashboard navigation' })
      .getByRole('link', { name: 'Contacts' })
      .click();
    await person.waitForURL(/\/contacts$/);
  });

  it('the Add Payment Method menu: arrow keys, Escape, and its dialog traps Tab and gives the focus back', async () => {
    await person.goto(`${peeks.server.url}/payment-method-list`);
    await person.getByText('You have 0 Payment Methods.').waitFor();
    const button = person.getByRole('button', { name: 'Add Payment Method' });
    await button.focus();
    await person.keyboard.press('Enter');
    const menu = person.getByRole('menu');
    await menu.waitFor();
    await expect.poll(() => focused(person)).toBe('menuitem: Credit Card');
    await person.keyboard.press('ArrowDown');
    await expect.poll(() => focused(person)).toBe('menuitem: Bank Account');
    await person.keyboard.press('End');
    await expect.poll(() => focused(person)).toBe('menuitem: Wired Account');
    await person.keyboard.press('Home');
    await expect.poll(() => focused(person)).toBe('menuitem: Credit Card');
    await person.keyboard.press('ArrowDown');
    await atDeskAndPhone(person, '95-add-payment-method-menu');
    // The photographs resized the window, which may close a menu: open it again from the keyboard.
    if (!(await menu.isVisible())) {
      await button.focus();
      await person.keyboard.press('ArrowDown');
      await menu.waitFor();
    }
    await person.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => focused(person)).toBe('button: Add Payment Method');

    // ArrowDown opens it too; Enter on an entry opens that entry's dialog.
    await person.keyboard.press('ArrowDown');
    await menu.waitFor();
    await person.keyboard.press('ArrowDown');
    await expect.poll(() => focused(person)).toBe('menuitem: Bank Account');
    await person.keyboard.press('Enter');
    const dialog = person.getByRole('dialog', { name: 'Add Bank Account' });
    await dialog.waitFor();
    await expect.poll(() => focusInDialog(person)).toBe(true);
    // Tab and Shift+Tab go round inside the dialog, never to the page behind.
    const stops = await dialog
      .locator('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea')
      .count();
    for (let step = 0; step <= stops; step += 1) {
      await person.keyboard.press('Tab');
      expect(await focusInDialog(person), `Tab ${String(step + 1)} stays in the dialog`).toBe(true);
    }
    for (let step = 0; step < 3; step += 1) {
      await person.keyboard.press('Shift+Tab');
      expect(await focusInDialog(person), `Shift+Tab ${String(step + 1)} stays in the dialog`).toBe(true);
    }
    await atDeskAndPhone(person, '96-add-bank-account-dialog');
    await person.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(person)).toBe('button: Add Payment Method');
  });

  it("the profile's tabs: the arrow keys, Home and End move and select; on a phone the strip shows it scrolls", async () => {
    await person.setViewportSize(PHONE);
    await person.goto(`${peeks.server.url}/profile`);
    const strip = person.getByRole('tablist');
    const profile = person.getByRole('tab', { name: 'Profile', exact: true });
    await profile.waitFor();
    // More tabs than a phone's width: the strip fades at the end where they hide.
    await expect.poll(() => strip.getAttribute('data-more')).toBe('end');
    await atDeskAndPhone(person, '97-profile-tabs-start');
    await person.setViewportSize(PHONE);

    await profile.focus();
    await person.keyboard.press('ArrowRight');
    await expect.poll(() => focused(person)).toBe('tab: Address');
    expect(await person.getByRole('tab', { name: 'Address' }).getAttribute('aria-selected')).toBe('true');
    await person.getByRole('tabpanel', { name: 'Address' }).waitFor();
    await person.keyboard.press('End');
    await expect.poll(() => focused(person)).toBe('tab: Agreements');
    await person.getByRole('tabpanel', { name: 'Agreements' }).waitFor();
    // Scrolled to its end, the strip fades at the start instead.
    await expect.poll(() => strip.getAttribute('data-more')).toBe('start');
    await atBothWidths(person, '97-profile-tabs-end', [390]);
    await person.keyboard.press('Home');
    await expect.poll(() => focused(person)).toBe('tab: Profile');
    await person.keyboard.press('ArrowLeft');
    await expect.poll(() => focused(person), { message: 'the arrows go round' }).toBe('tab: Agreements');
    // One tab stop: Tab leaves the strip for the panel.
    await person.keyboard.press('Tab');
    await expect.poll(() => focused(person)).toMatch(/^tabpanel: /);
  });

  it('the Holds tooltip shows on keyboard focus and on hover', async () => {
    await person.setViewportSize({ width: 1280, height: 900 });
    await person.goto(`${peeks.server.url}/`);
    const help = person.locator('.currency-table .help');
    await help.waitFor();
    // A scroll of the page closes a tooltip: bring the heading into view, once the page has settled.
    await person.waitForLoadState('networkidle');
    await help.scrollIntoViewIfNeeded();
    const tooltip = person.getByRole('tooltip');
    await expect
      .poll(
        async () => {
          await help.blur();
          await help.focus();
          return tooltip.count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect(await tooltip.textContent()).toContain('Holds are placed on newly received money');
    // At a desk only: on a phone the table's rows stack as cards, each figure labelled, and the heading row is hidden.
    await atBothWidths(person, '98-holds-tooltip-focus', [1280]);
    await person.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });
    await help.blur();
    await person.mouse.move(0, 0);
    await help.hover();
    await tooltip.waitFor({ state: 'attached' });
    // Away from the heading and the tooltip both; it goes once the pointer is seen moving outside them.
    let nudge = 0;
    await expect
      .poll(
        async () => {
          nudge += 1;
          await person.mouse.move(600 + (nudge % 2) * 10, 880, { steps: 2 });
          return tooltip.count();
        },
        { timeout: 10_000 },
      )
      .toBe(0);
  });

  it('the account menu: arrow keys, Home, End, the language as a choice of one, Escape back to its button', async () => {
    await person.setViewportSize({ width: 1280, height: 900 });
    await person.goto(`${peeks.server.url}/`);
    const button = person.getByRole('button', { name: /Account menu/ });
    await button.focus();
    await person.keyboard.press('Enter');
    const menu = person.getByRole('menu');
    await menu.waitFor();
    await expect.poll(() => focused(person)).toBe('menuitem: Wallet');
    await person.keyboard.press('ArrowDown');
    await expect.poll(() => focused(person)).toBe('menuitem: Profile');
    await person.keyboard.press('End');
    await expect.poll(() => focused(person)).toBe('menuitem: Sign Out');
    await person.keyboard.press('Home');
    await expect.poll(() => focused(person)).toBe('menuitem: Wallet');
    await atDeskAndPhone(person, '99-account-menu');
    if (!(await menu.isVisible())) {
      await button.focus();
      await person.keyboard.press('ArrowDown');
      await menu.waitFor();
    }
    await person.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => focused(person)).toMatch(/^button: .*Account menu$/);

    // The languages are entries too (menuitemradio), the one in use checked; Enter chooses one.
    const choose = async (name: string) => {
      await person.keyboard.press('ArrowDown');
      await menu.waitFor();
      // One entry a press: each press waits for the focus to move, so none overshoots.
      for (let step = 0; step < 24 && !(await focused(person)).endsWith(name); step += 1) {
        const before = await focused(person);
        await person.keyboard.press('ArrowDown');
        await expect.poll(() => focused(person)).not.toBe(before);
      }
      expect(await focused(person)).toMatch(new RegExp(`^menuitemradio: .*${name}$`));
      await person.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
    };
    await choose('日本語');
    await expect.poll(() => person.evaluate<string>('document.documentElement.lang')).toBe('ja');
    await expect.poll(() => focused(person)).toMatch(/^button: .*アカウント/);
    await person.keyboard.press('ArrowDown');
    await menu.waitFor();
    expect(await person.getByRole('menuitemradio', { name: '日本語' }).getAttribute('aria-checked')).toBe('true');
    await atBothWidths(person, '99-account-menu-language', [1280]);
    await person.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    // The menu gives the focus back to its button a moment after it closes; the next ArrowDown must reach the button.
    await expect.poll(() => focused(person)).toMatch(/^button: .*アカウント/);
    await choose('English');
    await expect.poll(() => person.evaluate<string>('document.documentElement.lang')).toBe('en');
    await expect.poll(() => focused(person)).toMatch(/^button: .*Account menu$/);
  });

  it('Sign Out from the keyboard: its toast is said in the live region, and F8 and Escape dismiss it', async () => {
    const button = person.getByRole('button', { name: /Account menu/ });
    await button.focus();
    await person.keyboard.press('Enter');
    await person.getByRole('menu').waitFor();
    await person.keyboard.press('End');
    await expect.poll(() => focused(person)).toBe('menuitem: Sign Out');
    await person.keyboard.press('Enter');
    await person.waitForURL(/\/login$/);
    // Shown once, in the toasts' region; said once, by the polite live region there since the page loaded.
    const shown = toastSaying(person, 'You are signed out.');
    await shown.waitFor();
    // F8 takes the focus to the toasts, which pauses their time while it is there.
    await person.keyboard.press('F8');
    await expect.poll(() => focused(person)).toBe('ol: You are signed out.×');
    expect(await person.getByRole('status').filter({ hasText: 'You are signed out.' }).count()).toBe(1);
    expect(await person.getByText('You are signed out.', { exact: true }).count()).toBe(2);
    await atDeskAndPhone(person, '99-toast');
    await person.keyboard.press('F8');
    await person.keyboard.press('Escape');
    await shown.waitFor({ state: 'detached' });
    expect(await person.getByRole('status').filter({ hasText: 'You are signed out.' }).count()).toBe(0);
  });
});
