import { businessSignUp } from '@peeks/api/testing';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { agreementsTexts } from '../../web/src/features/agreements/i18n.ts';
import { profileTexts } from '../../web/src/features/profile/i18n.ts';
import { webhooksTexts } from '../../web/src/features/webhooks/i18n.ts';
import { checkoutTexts } from '../../web/src/features/checkout/i18n.ts';
import { historyTexts } from '../../web/src/features/history/i18n.ts';
import { merchantTexts } from '../../web/src/features/merchant/i18n.ts';
import { contactsTexts } from '../../web/src/features/contacts/i18n.ts';
import { depositsTexts } from '../../web/src/features/deposits/i18n.ts';
import { legalTexts } from '../../web/src/features/legal/i18n.ts';
import { qrCodesTexts } from '../../web/src/features/qr-codes/i18n.ts';
import { recoveryTexts } from '../../web/src/features/recovery/i18n.ts';
import { dictionaries } from '../../web/src/app/texts.ts';
import { uiTexts } from '../../web/src/ui/i18n.ts';
import {
  acceptPendingAgreement,
  atBothWidths,
  callFrom,
  checkScreen,
  newcomer,
  signedBy,
  signedInAs,
  signUpAsPerson,
  signUpWithAgreementPending,
  toastSaying,
} from './journey.ts';
import { stage, webhookReceiver } from './stage.ts';

/**
 * Issue 24's journeys against npm start, one server and one Chromium for the
 * file: a merchant edits the merchant and user details, uploads an avatar
 * and a document, adds and deletes a terminal, toggles a notification and
 * adds an address; adds a webhook to a receiver on loopback, sees a
 * payment's delivery in the log and replays it, both signed; a newcomer's
 * pending agreement covers the dashboard until accepted, or skipped before
 * its agree-by date; and a person who chooses Japanese reads no English on
 * any built screen. Each screen photographed at 1366 px and 390 px and checked with axe.
 */
const peeks = stage();
const receiver = webhookReceiver();

let merchant: Page;
const suffix = String(Date.now()).slice(-6);
const owner = { ...businessSignUp(), username: `owner${suffix}`, email: `owner${suffix}@example.com` };

/** A small picture made by the browser itself: a JPEG (or PNG) of a coloured square. */
async function picture(page: Page, type: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  const dataUrl = await page.evaluate<string>(`(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d');
    context.fillStyle = '#2f3e9e';
    context.fillRect(0, 0, 64, 64);
    context.fillStyle = '#f2b705';
    context.fillRect(16, 16, 32, 32);
    return canvas.toDataURL('${type}');
  })()`);
  return Buffer.from(dataUrl.replace(/^data:[^,]+,/, ''), 'base64');
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();

/** The screens this file finishes, at a desk (1280 px) and on a phone (390 px). */
const atDeskAndPhone = (page: Page, name: string) => atBothWidths(page, name, [1280, 390]);

describe('profile, merchant settings, webhooks, agreements and languages in the browser', { timeout: 240_000 }, () => {
  it('a merchant edits the user and merchant details and uploads an avatar', async () => {
    merchant = await peeks.page();
    await merchant.goto(`${peeks.server.url}/login`);
    const registered = await callFrom(merchant, 'POST', '/api/register/business', owner);
    expect(registered.status, registered.text).toBe(200);
    await merchant.goto(`${peeks.server.url}/`);
    await signedInAs(merchant, owner.username);
    await acceptPendingAgreement(merchant);

    await merchant.goto(`${peeks.server.url}/profile`);
    await merchant.getByRole('button', { name: 'Edit profile' }).click();
    const details = merchant.getByRole('dialog', { name: 'User Details' });
    await details.getByLabel('First Name').fill('Claire');
    await details.getByLabel('Last Name').fill('Fortin');
    await details.getByLabel('Phone', { exact: true }).fill('6135550123');
    await atDeskAndPhone(merchant, '80-profile-user-details');
    await details.getByRole('button', { name: 'Save User' }).click();
    await toastSaying(merchant, 'Profile Updated successfully.').waitFor();
    await merchant.getByRole('heading', { name: 'Claire Fortin' }).waitFor();
    // The profile as a card of facts, the phone as dialled; the tabs on one line that scrolls, never wrapped.
    await merchant.getByText('+1 613 555 0123').waitFor();
    await atDeskAndPhone(merchant, '80b-profile-card');
    await merchant.setViewportSize({ width: 1280, height: 900 });
    const strip = await merchant.getByRole('tablist').boundingBox();
    const oneTab = await merchant.getByRole('tab', { name: 'Profile', exact: true }).boundingBox();
    expect(strip && oneTab && strip.height < oneTab.height * 1.5, 'the profile tabs wrap').toBe(true);
    await merchant.setViewportSize({ width: 1366, height: 900 });

    await merchant.getByLabel('Change photo (.jpg or .jpeg)').setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: await picture(merchant, 'image/jpeg'),
    });
    await merchant.getByRole('img', { name: 'Preview of your new photo' }).waitFor();
    await merchant.getByRole('button', { name: 'Save Photo' }).click();
    await toastSaying(merchant, 'Avatar Updated successfully.').waitFor();
    await expect
      .poll(() => merchant.locator('.profile-head img.avatar').getAttribute('src'), { timeout: 10_000 })
      .toMatch(/^\/api\/user\/avatar\//);
    await atBothWidths(merchant, '81-profile-avatar');

    await tab(merchant, 'Merchant');
    await merchant.getByRole('heading', { name: 'Merchant Setting' }).waitFor();
    await merchant.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = merchant.getByRole('dialog', { name: 'Merchant Details' });
    expect(await dialog.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('Website').fill('https://maple.example.com');
    // A support line in the United Kingdom: its dialling code is kept from here on.
    await dialog.getByLabel('Support Phone: Dialling code').selectOption('+44');
    await atDeskAndPhone(merchant, '82-profile-merchant-details');
    await dialog.getByRole('button', { name: 'Save Merchant' }).click();
    await toastSaying(merchant, 'Merchant Details Updated successfully.').waitFor();
    await merchant.getByText('https://maple.example.com').first().waitFor();
    // The merchant's details as described groups, every phone dialled.
    const setting = merchant.getByRole('region', { name: 'Merchant Setting' });
    for (const group of ['Business', 'Support', 'Contact'])
      await setting.getByRole('heading', { name: group, exact: true }).waitFor();
    const phones = await setting.locator('dd').filter({ hasText: /^\+\d/ }).allInnerTexts();
    expect(phones.length).toBe(3);
    for (const phone of phones) expect(phone.trim()).toMatch(/^\+\d{1,4} \d{3} \d{3} \d{4}$/);
    expect(phones.filter((phone) => phone.startsWith('+44 '))).toHaveLength(1);
    await atDeskAndPhone(merchant, '82b-merchant-setting');
    // Opened again, the modal starts from the saved dialling codes, so saving it changes no region.
    await merchant.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await dialog.getByLabel('Support Phone: Dialling code').inputValue()).toBe('+44');
    expect(await dialog.getByLabel('Contact Phone: Dialling code').inputValue()).toBe('+1');
    await dialog.getByRole('button', { name: 'Save Merchant' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          (
            await setting
              .locator('dd')
              .filter({ hasText: /^\+44 / })
              .allInnerTexts()
          ).length,
      )
      .toBe(1);
  });

  it('the merchant adds and deletes a terminal, uploads a document, toggles a notification and adds an address', async () => {
    await tab(merchant, 'Merchant Terminal');
    await merchant.getByText('You have 0 Merchant').waitFor();
    await merchant.getByRole('button', { name: 'Add Merchant' }).click();
    const add = merchant.getByRole('dialog', { name: 'Add Merchant' });
    await add.getByLabel('Terminal Id').fill('COUNTER-1');
    await add.getByLabel('Registration Code').selectOption('101');
    await add.getByLabel('Comment').fill('Front counter');
    await add.getByRole('button', { name: 'Save' }).click();
    await toastSaying(merchant, 'Terminal added successfully.').waitFor();
    await merchant.getByRole('heading', { name: 'Terminal 1' }).waitFor();
    await atBothWidths(merchant, '83-profile-terminal');
    await merchant.getByRole('button', { name: 'Delete COUNTER-1' }).click();
    await merchant
      .getByRole('dialog', { name: 'Delete Terminal' })
      .getByRole('button', { name: 'Yes, delete it!' })
      .click();
    await toastSaying(merchant, 'Terminal deleted successfully.').waitFor();
    await merchant.getByText('You have 0 Merchant').waitFor();

    await tab(merchant, 'Document Upload');
    await merchant.getByLabel('Document Type').selectOption('passport');
    await merchant.getByLabel('Document Number').fill('AB123456');
    await merchant.getByLabel('Issuing Country').selectOption('CA');
    await merchant.getByLabel('Issue Date').pressSequentially('01012020');
    await merchant.getByLabel('Expiry Date').pressSequentially('01012030');
    expect(await merchant.getByLabel('Expiry Date').inputValue()).toBe('01-01-2030');
    await merchant.getByLabel('Image (JPEG or PNG)').setInputFiles({
      name: 'passport.png',
      mimeType: 'image/png',
      buffer: await picture(merchant, 'image/png'),
    });
    await merchant.getByRole('button', { name: 'Upload Document' }).click();
    await toastSaying(merchant, 'Document uploaded successfully.').waitFor();
    await merchant.getByText('AB123456').waitFor();
    await atBothWidths(merchant, '84-profile-document');

    await tab(merchant, 'Notifications');
    // Each switch is named in words, never by its key.
    await merchant.getByRole('switch', { name: 'Money you receive' }).waitFor();
    expect(await merchant.getByText(/send-fund|receive-fund/).count()).toBe(0);
    const toggle = merchant.getByRole('switch').first();
    await toggle.waitFor();
    const before = await toggle.isChecked();
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(!before);
    await merchant.reload();
    await tab(merchant, 'Notifications');
    await expect.poll(() => merchant.getByRole('switch').first().isChecked(), { timeout: 10_000 }).toBe(!before);
    await atDeskAndPhone(merchant, '85-profile-notifications');

    await tab(merchant, 'Address');
    await merchant.getByText('You have 0 Address').waitFor();
    await merchant.getByRole('button', { name: 'Add Address' }).click();
    const address = merchant.getByRole('dialog', { name: 'Address' });
    await address.getByLabel('First Name').fill('Claire');
    await address.getByLabel('Last Name').fill('Fortin');
    await address.getByLabel('Address 1').fill('12 Rideau St');
    await address.getByLabel('City').fill('Ottawa');
    await address.getByLabel('Country').selectOption('CA');
    await address.getByLabel('Province/State').selectOption('ON');
    await address.getByLabel('Postal/Zip Code').fill('K1N 5X8');
    await atBothWidths(merchant, '86-profile-address-dialog');
    await address.getByRole('button', { name: 'Save Address' }).click();
    await merchant.getByRole('heading', { name: 'Address 1' }).waitFor();
    await atBothWidths(merchant, '87-profile-address');
  });

  it('the merchant adds a webhook, sees a payment delivered in the log, replays it, and both are signed', async () => {
    const url = receiver.url('/shop-hook');
    await merchant.goto(`${peeks.server.url}/webhook`);
    await merchant.getByRole('button', { name: 'Add Webhook' }).click();
    const form = merchant.getByRole('dialog', { name: 'Add Webhook' });
    expect(await form.getByRole('radio', { name: 'enabled' }).isChecked()).toBe(true);
    await form.getByLabel('URL').fill(url);
    await form.getByRole('checkbox', { name: 'purchase' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    const secretDialog = merchant.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await secretDialog.getByTestId('signing-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await atDeskAndPhone(merchant, '88-webhook-secret');
    await secretDialog.getByRole('button', { name: 'Close' }).first().click();
    await merchant.getByRole('cell', { name: url }).first().waitFor();

    // A sale: a buyer pays a checkout of the merchant's.
    const created = await callFrom(merchant, 'POST', '/api/checkout/create-session', {
      cart: [{ sku: 'TEA', name: 'Tea', price: 4_00 }],
      total: 4_00,
      currency: 'USD',
      success_url: 'https://shop.example.com/thanks',
    });
    expect(created.status, created.text).toBe(200);
    const { id, token } = JSON.parse(created.text) as { id: number; token: string };
    const buyer = await peeks.page();
    const who = newcomer('hookbuyer');
    await buyer.goto(`${peeks.server.url}/register/personal`);
    await signUpAsPerson(buyer, who);
    const row = await peeks.server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', who.username)
      .executeTakeFirstOrThrow();
    await executeLedgerCommand(
      peeks.server.database.db,
      {
        type: 'CorrectBalance',
        txId: `journey-funds-${who.username}`,
        ownerId: userOwnerId(row.user_id),
        amount: 10_00,
        currency: 'USD',
        reason: 'journey funds',
        operatorId: 'test',
      },
      { holdHours: 24 },
    );
    const paid = await callFrom(buyer, 'POST', '/api/checkout/pay', { id, token });
    expect(paid.status, paid.text).toBe(200);
    const txId = (JSON.parse(paid.text) as { transaction: { tx_id: string } }).transaction.tx_id;
    const ofSale = () => receiver.heard.filter((delivery) => delivery.body.includes(txId));
    await expect.poll(() => ofSale().length, { timeout: 30_000, interval: 250 }).toBe(1);

    await merchant.getByRole('button', { name: `Delivery log ${url}` }).click();
    const log = merchant.getByRole('dialog', { name: `Delivery log: ${url}` });
    await log.getByText('delivered', { exact: true }).first().waitFor();
    await atDeskAndPhone(merchant, '89-webhook-delivery-log');
    // Replay sits inside the dialog at both widths.
    for (const width of [1280, 390]) {
      await merchant.setViewportSize({ width, height: 900 });
      const box = await log.boundingBox();
      const replay = await log.getByRole('button', { name: 'Replay' }).first().boundingBox();
      expect(box && replay, 'the dialog and its Replay are shown').toBeTruthy();
      if (!box || !replay) continue;
      expect(replay.x, `Replay at ${String(width)} px`).toBeGreaterThanOrEqual(box.x);
      expect(replay.x + replay.width, `Replay at ${String(width)} px`).toBeLessThanOrEqual(box.x + box.width);
    }
    await merchant.setViewportSize({ width: 1366, height: 900 });
    await log.getByRole('button', { name: 'Replay' }).first().click();
    await expect.poll(() => ofSale().length, { timeout: 30_000, interval: 250 }).toBe(2);
    const [first, replayed] = ofSale();
    expect(first && signedBy(secret, first)).toBe(true);
    expect(replayed && signedBy(secret, replayed)).toBe(true);
    expect(replayed?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(replayed?.body).toBe(first?.body);

    await merchant.keyboard.press('Escape');
    await merchant.goto(`${peeks.server.url}/setting`);
    await merchant.getByRole('tab', { name: 'Webhook' }).waitFor();
    await merchant.getByRole('cell', { name: url }).first().waitFor();
    await atDeskAndPhone(merchant, '88b-settings');
  });

  it('a newcomer cannot use the dashboard until the pending agreement is accepted', async () => {
    const page = await peeks.page();
    const who = newcomer('agreer');
    await page.goto(`${peeks.server.url}/register/personal`);
    await signUpWithAgreementPending(page, who);

    const dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Accept', exact: true }) });
    await dialog.waitFor({ timeout: 30_000 });
    // No Close and no Cancel: its only ways out are Accept and Skip (Escape takes Skip: keyboard-journeys.test.ts).
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    // The dashboard behind is out of reach: a click on its navigation lands on the backdrop.
    const nav = page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Contacts' });
    await nav.click({ timeout: 2_000, trial: true }).then(
      () => {
        throw new Error('the dashboard navigation could be clicked behind the agreement');
      },
      () => undefined,
    );
    await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
    await dialog.getByText('Please accept terms and conditions').waitFor();
    await atBothWidths(page, '90-pending-agreement');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await nav.click();
    await page.waitForURL(/\/contacts$/);
    await checkScreen(page, '91-pending-agreement-accepted');
  });

  it('a newcomer may skip the pending agreement before its agree-by date, and it stays pending', async () => {
    const page = await peeks.page();
    const who = newcomer('skipper');
    await page.goto(`${peeks.server.url}/register/personal`);
    await signUpWithAgreementPending(page, who);

    // The Terms and Conditions must be agreed by 2099: until then Skip is offered.
    const dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Accept', exact: true }) });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Skip', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const nav = page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name: 'Contacts' });
    await nav.click();
    await page.waitForURL(/\/contacts$/);
    await checkScreen(page, '91b-pending-agreement-skipped');
    // Skipped is not agreed: the agreements page still offers it to accept.
    await page.goto(`${peeks.server.url}/agreement`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const listed = await callFrom(page, 'POST', '/api/agreement/agreement-list', {});
    expect(listed.status).toBe(200);
    const agreements = (JSON.parse(listed.text) as { agreements: { name: string; agreed_to: string | null }[] })
      .agreements;
    const terms = agreements.find((each) => each.name === 'Terms and Conditions');
    expect(terms).toBeDefined();
    expect(terms?.agreed_to).toBeNull();
  });

  it('a person who chooses Japanese reads no English on any built screen', async () => {
    const page = await peeks.page();
    await page.goto(`${peeks.server.url}/register/personal`);
    const reader = newcomer('nihongo');
    await signUpAsPerson(page, reader);
    // A transaction of theirs, so the history has a state and a type to show.
    const { user_id } = await peeks.server.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', reader.username)
      .executeTakeFirstOrThrow();
    await executeLedgerCommand(
      peeks.server.database.db,
      {
        type: 'CorrectBalance',
        txId: `journey-funds-${reader.username}`,
        ownerId: userOwnerId(user_id),
        amount: 5_00,
        currency: 'USD',
        reason: 'journey funds',
        operatorId: 'test',
      },
      { holdHours: 24 },
    );
    await page.getByRole('button', { name: /Account menu/ }).click();
    // The language is a choice of one in the account menu, each named in itself.
    await page.getByRole('menuitemradio', { name: '日本語' }).click();
    await page
      .getByRole('button', { name: /アカウント|Account menu/ })
      .first()
      .waitFor();

    // Every English text of these screens that Japanese words differently; none may show on them. Event
    // names ('purchase') are keys in English.
    const english = [profileTexts, agreementsTexts, webhooksTexts].flatMap((texts) =>
      differing(texts.en, texts.ja).filter(
        (text) => !text.includes('{{') && text.length >= 4 && !/^[a-z-]+$/.test(text),
      ),
    );
    const englishOn = async () => {
      const text = await page.locator('main').innerText();
      return english.filter((each) => text.includes(each));
    };

    await page.goto(`${peeks.server.url}/profile`);
    await page.getByRole('tab', { name: 'プロフィール' }).waitFor();
    const tabs = page.getByRole('tab');
    const count = await tabs.count();
    expect(count).toBeGreaterThanOrEqual(6);
    for (let index = 0; index < count; index += 1) {
      const each = tabs.nth(index);
      const name = (await each.textContent()) ?? '';
      await each.click();
      await page.waitForLoadState('networkidle');
      expect(await englishOn(), `English on the ${name} tab`).toEqual([]);
    }
    await atBothWidths(page, '92-profile-ja');
    for (const route of ['/agreement', '/webhook', '/setting']) {
      await page.goto(`${peeks.server.url}${route}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await englishOn(), `English on ${route}`).toEqual([]);
    }
    await atBothWidths(page, '93-setting-ja');

    // The rest of the built screens a person reaches, read against every dictionary of the app.
    const everyEnglish = [
      ...dictionaries,
      // The screens in their own chunks, whose texts are not in the first load's list.
      profileTexts,
      agreementsTexts,
      webhooksTexts,
      contactsTexts,
      depositsTexts,
      legalTexts,
      qrCodesTexts,
      recoveryTexts,
      merchantTexts,
      historyTexts,
      checkoutTexts,
    ].flatMap((texts) =>
      differing(texts.en, texts.ja).filter(
        (text) => !text.includes('{{') && text.length >= 4 && !/^[a-z-]+$/.test(text),
      ),
    );
    for (const route of [
      '/',
      '/wallet',
      '/transaction',
      '/contacts',
      '/add-recipient',
      '/payment-method-list',
      '/add-fund',
      '/scan-qr-code',
      '/?deposit=choose',
      // Not /terms and /privacy: their clauses wait for a legal translator (features/legal/i18n.ts).
    ]) {
      await page.goto(`${peeks.server.url}${route}`);
      // A heading, of the page or of the dialog it opens.
      await page.getByRole('heading').first().waitFor();
      await page.waitForLoadState('networkidle');
      // The product's name stays in English in every language.
      const text = (await page.locator('body').innerText()).replaceAll('Peeks Wallet', '');
      const found = [...new Set(everyEnglish.filter((each) => text.includes(each)))];
      const lines = text.split('\n').filter((line) => found.some((each) => line.includes(each)));
      expect(found, `English on ${route}, in: ${JSON.stringify(lines)}`).toEqual([]);
    }

    // The history's states and types are codes the API sends: in Japanese, none shows in English.
    const { words } = uiTexts.en;
    const codeWords = [
      ...Object.values(words.states),
      ...Object.values(words.transaction_types),
      ...Object.values(words.ledger_types),
    ];
    await page.goto(`${peeks.server.url}/transaction`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.locator('main').innerText(), { timeout: 10_000 }).toMatch(/訂正|完了|保留中/);
    const history = await page.locator('main').innerText();
    const inEnglish = codeWords.filter((word) => new RegExp(`(^|[^A-Za-z_])${word}([^A-Za-z_]|$)`).test(history));
    expect(inEnglish, `English states or types on /transaction: ${history}`).toEqual([]);
    // At a desk, its column headers and Details buttons keep their words whole: never a character a line
    // (種/類, 詳/細), as Japanese, without spaces, would break anywhere.
    await page.setViewportSize({ width: 1280, height: 900 });
    const broken = await page.evaluate<string[]>(`[...document.querySelectorAll('main thead th, main tbody td .button')]
      .filter((each) => {
        const range = document.createRange();
        range.selectNodeContents(each);
        return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size > 1;
      })
      .map((each) => each.textContent)`);
    expect(broken, 'headers or buttons on more than one line at 1280 px').toEqual([]);
    await atBothWidths(page, '94-transactions-ja', [1280, 390]);
  });
});

/** The English texts of a dictionary whose Japanese differs (a shared word such as 'URL' reads the same in both). */
function differing(en: unknown, ja: unknown): string[] {
  if (typeof en === 'string') return typeof ja === 'string' && ja !== en ? [en] : [];
  if (typeof en !== 'object' || en === null) return [];
  const other = (typeof ja === 'object' && ja !== null ? ja : {}) as Record<string, unknown>;
  return Object.entries(en).flatMap(([key, value]) => differing(value, other[key]));
}
