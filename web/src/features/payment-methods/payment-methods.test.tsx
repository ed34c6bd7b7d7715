import { tokenizeRequest } from '@peeks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { findToast, ok, refused, renderApp, resetSession } from '../../testing/app.tsx';
import { paymentApi, storedCard } from './testing.ts';

const mastercard = () =>
  storedCard({
    payment_method_id: 12,
    paymentMethodId: 12,
    is_default: false,
    selected: false,
    brand: 'mastercard',
    icon: 'mastercard',
    number: '************4444',
    type_specific: { card_brand: 'mastercard', card_mask: '************4444', card_expiry: { year: 2031, month: 1 } },
  });
const wire = () =>
  storedCard({
    payment_method_id: 13,
    paymentMethodId: 13,
    type: 'WIRE',
    is_default: false,
    selected: false,
    brand: 'WIRE Account',
    icon: 'wire',
    number: '******7788',
    type_specific: { account_no: '******7788' },
  });

/** What the tokenizer's page posts to the app (services/api card-processor/tokenizer-page.ts), from its iframe. */
function postFromTokenizer(data: unknown, { fromFrame = true } = {}) {
  const frame = screen.getByTitle<HTMLIFrameElement>('Card details');
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: window.location.origin,
        source: fromFrame ? frame.contentWindow : window,
      }),
    );
  });
}
const tokenFor = (token: string) => ({
  type: 'card-token',
  token,
  brand: 'visa',
  mask: '************4242',
  expiry_month: '08',
  expiry_year: '2029',
});

const cardAlert = (modal: HTMLElement) => within(within(modal).getByRole('group', { name: 'Card' })).getByRole('alert');

/** The Add Credit Card modal's holder fields, filled for Anne Tremblay at 100 Rideau St, Ottawa (Canada unless `place` says otherwise). */
async function fillCardHolder(
  user: ReturnType<typeof renderApp>['user'],
  modal: HTMLElement,
  place = { country: 'CA', province: 'ON', postal: 'K1N 5X8' },
) {
  await user.type(within(modal).getByLabelText('First Name'), 'Anne');
  await user.type(within(modal).getByLabelText('Last Name'), 'Tremblay');
  await user.type(within(modal).getByLabelText('Address'), '100 Rideau St');
  await user.type(within(modal).getByLabelText('City'), 'Ottawa');
  await user.selectOptions(within(modal).getByLabelText('Country'), place.country);
  await user.selectOptions(within(modal).getByLabelText('Province'), place.province);
  await user.type(within(modal).getByLabelText('Postal/Zip Code'), place.postal);
  await user.type(within(modal).getByLabelText('Cardholder Name'), 'Anne Tremblay');
}

/** Opens one of the Add Payment Method menu's modals: its menu entry, then the dialog it opens. */
async function openAddModal(user: ReturnType<typeof renderApp>['user'], entry: string, title: string) {
  await user.click(await screen.findByRole('button', { name: 'Add Payment Method' }));
  await user.click(screen.getByRole('menuitem', { name: entry }));
  return screen.findByRole('dialog', { name: title });
}
const openCardModal = (user: ReturnType<typeof renderApp>['user']) =>
  openAddModal(user, 'Credit Card', 'Add Credit Card');
const openBankModal = (user: ReturnType<typeof renderApp>['user']) =>
  openAddModal(user, 'Bank Account', 'Add Bank Account');
const openWireModal = (user: ReturnType<typeof renderApp>['user']) =>
  openAddModal(user, 'Wired Account', 'Add Wire Account');

describe('/payment-method-list, Payment Methods (spec §2, §4)', () => {
  beforeEach(resetSession);

  it('shows the count and a selector card per method: icon, number, expiry, the default highlighted, Select only when not default; a wire shows its entry date', async () => {
    paymentApi([
      storedCard(),
      mastercard(),
      wire(),
      storedCard({ payment_method_id: 14, state: 'D', number: '************0000' }),
    ]);
    renderApp('/payment-method-list');
    expect(await screen.findByRole('heading', { name: 'Payment Methods' })).toBeTruthy();
    expect(await screen.findByText('You have 3 Payment Methods.')).toBeTruthy();
    expect(screen.queryByText('VISA ************0000'), "state 'D' is not shown").toBeNull();

    const visa = screen.getByRole('listitem', { name: 'VISA ************4242' });
    expect(within(visa).getByText('Expires 08/2029')).toBeTruthy();
    expect(within(visa).getByText('Default')).toBeTruthy();
    expect(visa.className).toContain('default');
    expect(within(visa).queryByRole('button', { name: 'Select' })).toBeNull();
    expect(within(visa).getByRole('button', { name: 'Delete' })).toBeTruthy();

    const master = screen.getByRole('listitem', { name: 'MASTERCARD ************4444' });
    expect(within(master).getByText('Expires 01/2031')).toBeTruthy();
    expect(within(master).getByRole('button', { name: 'Select' })).toBeTruthy();
    expect(master.className).not.toContain('default');

    const wired = screen.getByRole('listitem', { name: 'WIRE Account ******7788' });
    expect(within(wired).getByText('Added Nov 2, 2026')).toBeTruthy();
  });

  it('Select makes a method the default and Delete removes it, each reloading the list', async () => {
    const methods = [storedCard(), mastercard()];
    const api = paymentApi(methods, {
      'POST /api/account/user-payment-method-update': (body) => {
        for (const method of methods)
          method.is_default = method.payment_method_id === (body as { paymentMethodId: number }).paymentMethodId;
        return ok({ payment_method: methods[1] });
      },
      'POST /api/account/user-payment-method-delete': (body) => {
        methods.splice(
          methods.findIndex(
            (method) => method.payment_method_id === (body as { paymentMethodId: number }).paymentMethodId,
          ),
          1,
        );
        return ok({ message: 'Payment method deleted successfully.' });
      },
    });
    const { user } = renderApp('/payment-method-list');
    await user.click(
      within(await screen.findByRole('listitem', { name: 'MASTERCARD ************4444' })).getByRole('button', {
        name: 'Select',
      }),
    );
    await waitFor(() => {
      expect(
        within(screen.getByRole('listitem', { name: 'VISA ************4242' })).getByRole('button', { name: 'Select' }),
      ).toBeTruthy();
    });
    expect(api.sent('POST', '/api/account/user-payment-method-update')[0]?.body).toEqual({
      paymentMethodId: 12,
      make_default: true,
    });

    await user.click(
      within(screen.getByRole('listitem', { name: 'VISA ************4242' })).getByRole('button', { name: 'Delete' }),
    );
    // Issue 22: deleting asks first; Cancel keeps the method.
    let confirm = screen.getByRole('dialog', { name: 'Delete Payment Method' });
    expect(within(confirm).getByText('Are you sure you want to delete VISA ************4242?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('POST', '/api/account/user-payment-method-delete')).toHaveLength(0);
    await user.click(
      within(screen.getByRole('listitem', { name: 'VISA ************4242' })).getByRole('button', { name: 'Delete' }),
    );
    confirm = screen.getByRole('dialog', { name: 'Delete Payment Method' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('You have 1 Payment Methods.')).toBeTruthy();
    expect(document.activeElement, 'focus goes to the heading, not lost with the button').toBe(
      screen.getByRole('heading', { name: 'Payment Methods' }),
    );
    expect(api.sent('POST', '/api/account/user-payment-method-delete')[0]?.body).toEqual({ paymentMethodId: 11 });
    expect(api.sent('POST', '/api/account/pay-method')).toHaveLength(3);
  });

  it("the 'Add Payment Method' menu offers Credit Card, Bank Account and Wired Account; Escape closes it and each modal; the list reloads on close", async () => {
    const api = paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    expect(await screen.findByText('You have 0 Payment Methods.')).toBeTruthy();
    const menu = screen.getByRole('button', { name: 'Add Payment Method' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(menu.getAttribute('aria-haspopup')).toBe('menu');
    await user.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Credit Card',
      'Bank Account',
      'Wired Account',
    ]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menu);

    // From the keyboard: Enter opens it on its first entry, the arrows move, Escape gives the focus back.
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Credit Card' }));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Wired Account' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Bank Account' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menu);

    await user.click(menu);
    await user.click(screen.getByRole('menuitem', { name: 'Bank Account' }));
    const bank = await screen.findByRole('dialog', { name: 'Add Bank Account' });
    await user.click(within(bank).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(document.activeElement, 'focus goes back to the menu button').toBe(menu);
    });
    // Chosen with Enter, the entry's modal opens, and Escape closes it back to the menu button.
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{End}{Enter}');
    await screen.findByRole('dialog', { name: 'Add Wire Account' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(menu);
    });
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/pay-method')).toHaveLength(3);
    });
  });
});

describe('Add Credit Card modal (spec §2, §5 Credit card)', () => {
  beforeEach(resetSession);

  it('an empty submit shows every rule in the spec words, under its labelled field', async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    for (const [label, text] of [
      ['First Name', 'Please enter First Name'],
      ['Last Name', 'Please enter Last Name'],
      ['Address', 'Please enter Address'],
      ['City', 'Please enter City'],
      ['Country', 'Please enter Country'],
      ['Province', 'Please enter Province'],
      ['Postal/Zip Code', 'Please enter Postal/Zip Code'],
      ['Cardholder Name', 'Please enter Cardholder Name'],
    ] as const) {
      const field = within(modal).getByLabelText(label);
      expect(field.getAttribute('aria-invalid'), label).toBe('true');
      expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent, label).toBe(text);
    }
    expect(cardAlert(modal).textContent).toBe('Please enter valid Card Number');
    expect(within(modal).getByTitle('Card details').getAttribute('aria-describedby')).toContain(
      within(modal).getByText('Please enter valid Card Number').id,
    );

    await user.type(within(modal).getByLabelText('First Name'), 'A');
    expect(await within(modal).findByText('Please enter at least 2 characters First Name')).toBeTruthy();
    await user.type(within(modal).getByLabelText('City'), 'x'.repeat(41));
    expect(await within(modal).findByText('Please enter at most 40 characters City')).toBeTruthy();
  });

  it('needs a country before the postal code, then the country’s format; provinces come from the country’s list', async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    await user.type(within(modal).getByLabelText('Postal/Zip Code'), 'K1A 0B1');
    await user.tab();
    expect(await within(modal).findByText('Please select country first')).toBeTruthy();

    await user.selectOptions(within(modal).getByLabelText('Country'), 'US');
    const states = within(modal).getByLabelText<HTMLSelectElement>('Province');
    expect(states.tagName).toBe('SELECT');
    expect(within(states).getAllByRole('option')).toHaveLength(51);
    await user.selectOptions(states, 'VT');
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    expect(await within(modal).findByText('Please enter valid Postal/Zip Code')).toBeTruthy();

    await user.selectOptions(within(modal).getByLabelText('Country'), 'CA');
    const provinces = within(modal).getByLabelText<HTMLSelectElement>('Province');
    expect(provinces.value, 'a new country clears the province').toBe('');
    expect(within(provinces).getByRole('option', { name: 'Ontario' })).toBeTruthy();
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    await waitFor(() => {
      expect(within(modal).queryByText('Please enter valid Postal/Zip Code')).toBeNull();
    });
    expect(within(modal).getByText('Please enter Province')).toBeTruthy();

    await user.selectOptions(within(modal).getByLabelText('Country'), 'FR');
    expect(within(modal).getByLabelText('Province').tagName, 'other countries type the province').toBe('INPUT');
  });

  it('says the card entry could not be loaded when the tokenizer lookup is refused, with no card frame', async () => {
    paymentApi([], {
      'GET /api/wallet/payment-provider-lookup': () => refused(503, [{ code: 9999, message: 'Unavailable' }]),
    });
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    expect(
      await within(modal).findByText('The card entry could not be loaded. Close this window and try again.'),
    ).toBeTruthy();
    expect(within(modal).queryByTitle('Card details')).toBeNull();
  });

  it('takes the card from the tokenizer iframe only, and saves it with the billing address as shipping too; the modal closes and the list reloads', async () => {
    const methods: ReturnType<typeof storedCard>[] = [];
    const api = paymentApi(methods, {
      'POST /api/wallet/add-pay-method': () => {
        methods.push(storedCard());
        return ok({ payment_method: methods[0] });
      },
    });
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    const frame = within(modal).getByTitle<HTMLIFrameElement>('Card details');
    expect(frame.getAttribute('src')).toBe('/api/sandbox/tokenizer');
    expect(api.sent('GET', '/api/wallet/payment-provider-lookup')).toHaveLength(1);

    postFromTokenizer(tokenFor('424242AbCdEfGhJkLmNpQrSt4242'), { fromFrame: false });
    expect(within(modal).queryByText(/Card ready/), 'a message from another window is ignored').toBeNull();
    postFromTokenizer(tokenFor('424242AbCdEfGhJkLmNpQrSt4242'));
    expect(await within(modal).findByText('Card ready: VISA ************4242, expires 08/2029')).toBeTruthy();

    await fillCardHolder(user, modal);
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));

    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Add Credit Card' })).toBeNull();
    });
    expect(await findToast('Credit Card added successfully.')).toBeTruthy();
    expect(await screen.findByText('You have 1 Payment Methods.')).toBeTruthy();
    const billing = {
      name_first: 'Anne',
      name_last: 'Tremblay',
      address1: '100 Rideau St',
      address2: '',
      city: 'Ottawa',
      province: 'ON',
      postal_code: 'K1N 5X8',
      country: 'CA',
    };
    expect(api.sent('POST', '/api/wallet/add-pay-method')[0]?.body).toEqual({
      type: 'CC',
      billing_address: billing,
      shipping_address: Object.fromEntries(Object.entries(billing).map(([key, value]) => [`shipping_${key}`, value])),
      type_specific: {
        token: '424242AbCdEfGhJkLmNpQrSt4242',
        token_type: 'sandbox',
        cardholder_name: 'Anne Tremblay',
        card_expiry: { year: '2029', month: '08' },
      },
    });
    expect(api.sent('POST', '/api/wallet/add-pay-method')[0]?.headers['x-csrf-token']).toBe('csrf-signed-in');
  });

  it('takes a shipping address of its own when it is not the billing one, with the same rules', async () => {
    const api = paymentApi([], { 'POST /api/wallet/add-pay-method': () => ok({ payment_method: storedCard() }) });
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    const same = within(modal).getByRole('checkbox', { name: 'The shipping address is the billing address' });
    expect((same as HTMLInputElement).checked).toBe(true);
    expect(within(modal).queryByRole('group', { name: 'Shipping Address' })).toBeNull();
    await user.click(same);
    const shipping = within(modal).getByRole('group', { name: 'Shipping Address' });
    const billing = within(modal).getByRole('group', { name: 'Billing Address' });
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    expect(await within(shipping).findByText('Please enter First Name')).toBeTruthy();
    expect(within(shipping).getByText('Please enter City')).toBeTruthy();

    postFromTokenizer(tokenFor('424242AbCdEfGhJkLmNpQrSt4242'));
    for (const [group, city, postal] of [
      [billing, 'Ottawa', 'K1N 5X8'],
      [shipping, 'Toronto', 'M5V 2T6'],
    ] as const) {
      await user.type(within(group).getByLabelText('First Name'), 'Anne');
      await user.type(within(group).getByLabelText('Last Name'), 'Tremblay');
      await user.type(within(group).getByLabelText('Address'), '100 Main St');
      await user.type(within(group).getByLabelText('City'), city);
      await user.selectOptions(within(group).getByLabelText('Country'), 'CA');
      await user.selectOptions(within(group).getByLabelText('Province'), 'ON');
      await user.type(within(group).getByLabelText('Postal/Zip Code'), postal);
    }
    await user.type(within(modal).getByLabelText('Cardholder Name'), 'Anne Tremblay');
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/wallet/add-pay-method')).toHaveLength(1);
    });
    expect(
      (api.sent('POST', '/api/wallet/add-pay-method')[0]?.body as { shipping_address: unknown }).shipping_address,
    ).toEqual({
      shipping_name_first: 'Anne',
      shipping_name_last: 'Tremblay',
      shipping_address1: '100 Main St',
      shipping_address2: '',
      shipping_city: 'Toronto',
      shipping_province: 'ON',
      shipping_postal_code: 'M5V 2T6',
      shipping_country: 'CA',
    });
  });

  it('leaves the shipping rules out again when the box is ticked back', async () => {
    const api = paymentApi([], { 'POST /api/wallet/add-pay-method': () => ok({ payment_method: storedCard() }) });
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    const same = within(modal).getByRole('checkbox', { name: 'The shipping address is the billing address' });
    await user.click(same);
    await user.type(within(within(modal).getByRole('group', { name: 'Shipping Address' })).getByLabelText('City'), 'T');
    await user.click(same);
    postFromTokenizer(tokenFor('424242AbCdEfGhJkLmNpQrSt4242'));
    await fillCardHolder(user, modal);
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/wallet/add-pay-method')).toHaveLength(1);
    });
    expect(
      (api.sent('POST', '/api/wallet/add-pay-method')[0]?.body as { shipping_address: { shipping_city: string } })
        .shipping_address.shipping_city,
    ).toBe('Ottawa');
  });

  it("alerts 'Payment method not supported' for a token outside 4, 22-27 and 51-55, and shows the tokenizer's refusals", async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    postFromTokenizer({ ...tokenFor('378282AbCdEfGhJkLmNp0005'), brand: 'amex', mask: '***********0005' });
    await waitFor(() => {
      expect(cardAlert(modal).textContent).toBe('Payment method not supported');
    });
    expect(within(modal).queryByText(/Card ready/)).toBeNull();

    postFromTokenizer({
      type: 'card-token-error',
      errors: [{ code: 4001, field: 'expiry_year', message: 'Please enter valid Expiry Year' }],
    });
    expect(await within(modal).findByText('Please enter valid Expiry Year')).toBeTruthy();
    postFromTokenizer(tokenFor('222100AbCdEfGhJkLmNp0009'));
    await waitFor(() => {
      expect(within(modal).queryByText('Please enter valid Expiry Year')).toBeNull();
    });
    expect(within(modal).getByText(/Card ready/)).toBeTruthy();
  });

  it("shows the tokenizer's refusals under the card once, one a line", async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    postFromTokenizer({
      type: 'card-token-error',
      errors: [
        { code: 4001, field: 'card_number', message: 'Please enter valid Card Number' },
        { code: 4001, field: 'cvv', message: 'Please enter CVV' },
        { code: 4001, field: 'card_number', message: 'Please enter valid Card Number' },
      ],
    });
    const first = await within(modal).findByText('Please enter valid Card Number');
    const lines = [...(first.parentElement?.children ?? [])].map((line) => line.textContent);
    expect(lines).toEqual(['Please enter valid Card Number', 'Please enter CVV']);
    expect(within(modal).getAllByText('Please enter valid Card Number')).toHaveLength(1);
  });

  it("lists the server's refusal in the modal and keeps it open", async () => {
    paymentApi([], { 'POST /api/wallet/add-pay-method': () => refused(409, [{ code: 10503, message: 'exists' }]) });
    const { user } = renderApp('/payment-method-list');
    const modal = await openCardModal(user);
    postFromTokenizer(tokenFor('424242AbCdEfGhJkLmNpQrSt4242'));
    await fillCardHolder(user, modal, { country: 'US', province: 'VT', postal: '05401' });
    await user.click(within(modal).getByRole('button', { name: 'Save Card' }));
    expect(await within(modal).findByText('Payment method already exist')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add Credit Card' })).toBeTruthy();
  });

  it("the tokenizer's own fields check the §5 card rules in the spec words (the schema of its tokenize call)", () => {
    const thisYear = new Date().getUTCFullYear();
    const good = {
      card_number: '4242 4242 4242 4242',
      cvv: '123',
      expiry_month: '12',
      expiry_year: String(thisYear + 1),
    };
    const first = (entry: Record<string, unknown>) =>
      tokenizeRequest.safeParse({ ...good, ...entry }).error?.issues[0]?.message;
    expect(tokenizeRequest.safeParse(good).success).toBe(true);
    expect(first({ card_number: '4242 4242 4242 4241' })).toBe('Please enter valid Card Number');
    expect(first({ cvv: '12' })).toBe('Please enter at least 3 characters CVV');
    expect(first({ cvv: '12a' })).toBe('Please enter valid CVV');
    expect(first({ expiry_month: '' })).toBe('Please enter Expiry Month');
    expect(first({ expiry_year: String(thisYear - 1) })).toBe('Please enter valid Expiry Year');
    expect(first({ expiry_year: String(thisYear + 10) }), 'the list ends nine years on').toBe(
      'Please enter valid Expiry Year',
    );
  });
});

describe('Add Bank Account modal (spec §2, §4, §5 Bank account)', () => {
  beforeEach(resetSession);

  it("shows Canada's transit and institution numbers for CA and the routing number and account type elsewhere, each rule in the spec words, digits only", async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openBankModal(user);
    const bank = within(modal).getByRole('group', { name: 'Bank Account' });
    await user.click(within(modal).getByRole('button', { name: 'Save Bank Account' }));
    expect(await within(bank).findByText('Please enter Account Number')).toBeTruthy();
    expect(within(bank).getByText('Please enter Routing Number')).toBeTruthy();
    expect(within(bank).getByText('Please select Account Type')).toBeTruthy();
    expect(within(bank).queryByLabelText('Transit Number')).toBeNull();
    expect(within(modal).getByRole('group', { name: 'Account Holder' })).toBeTruthy();

    const account = within(bank).getByLabelText<HTMLInputElement>('Account Number');
    await user.type(account, '12-345');
    expect(account.value).toBe('12345');
    expect(await within(bank).findByText('Please enter at least 9 characters Account Number')).toBeTruthy();
    await user.type(within(bank).getByLabelText('Routing Number'), '12345678');
    expect(await within(bank).findByText('Please enter at least 9 characters Routing Number')).toBeTruthy();

    await user.selectOptions(within(modal).getByLabelText('Country'), 'CA');
    expect(within(bank).queryByLabelText('Routing Number')).toBeNull();
    await user.click(within(modal).getByRole('button', { name: 'Save Bank Account' }));
    expect(await within(bank).findByText('Please enter Transit Number')).toBeTruthy();
    expect(within(bank).getByText('Please enter Institution Number')).toBeTruthy();
    expect(within(bank).queryByText('Please select Account Type')).toBeNull();
    await user.type(within(bank).getByLabelText('Transit Number'), '123456');
    expect(await within(bank).findByText('Please enter at most 5 characters Transit Number')).toBeTruthy();
  });

  it('saves a Canadian account with only its own bank fields, then closes and reloads the list', async () => {
    const methods: ReturnType<typeof storedCard>[] = [];
    const api = paymentApi(methods, {
      'POST /api/wallet/add-pay-method': () => {
        methods.push(
          storedCard({ type: 'CHQ', brand: 'Bank Account', icon: 'bank', number: '*****6789', type_specific: {} }),
        );
        return ok({ payment_method: methods[0] });
      },
    });
    const { user } = renderApp('/payment-method-list');
    const modal = await openBankModal(user);
    await user.type(within(modal).getByLabelText('First Name'), 'Anne');
    await user.type(within(modal).getByLabelText('Last Name'), 'Tremblay');
    await user.type(within(modal).getByLabelText('Address'), '100 Rideau St');
    await user.type(within(modal).getByLabelText('City'), 'Ottawa');
    await user.selectOptions(within(modal).getByLabelText('Country'), 'US');
    await user.type(within(modal).getByLabelText('Routing Number'), '021000021');
    await user.selectOptions(within(modal).getByLabelText('Country'), 'CA');
    await user.selectOptions(within(modal).getByLabelText('Province'), 'ON');
    await user.type(within(modal).getByLabelText('Postal/Zip Code'), 'K1N 5X8');
    await user.type(within(modal).getByLabelText('Account Number'), '123456789');
    await user.type(within(modal).getByLabelText('Transit Number'), '12345');
    await user.type(within(modal).getByLabelText('Institution Number'), '003');
    await user.click(within(modal).getByRole('button', { name: 'Save Bank Account' }));

    expect(await screen.findByText('You have 1 Payment Methods.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Add Bank Account' })).toBeNull();
    expect(screen.getByRole('listitem', { name: 'Bank Account *****6789' })).toBeTruthy();
    expect(api.sent('POST', '/api/wallet/add-pay-method')[0]?.body).toEqual({
      type: 'CHQ',
      billing_address: {
        name_first: 'Anne',
        name_last: 'Tremblay',
        address1: '100 Rideau St',
        address2: '',
        city: 'Ottawa',
        province: 'ON',
        postal_code: 'K1N 5X8',
        country: 'CA',
      },
      type_specific: { account_no: '123456789', cardholder_name: '', transit_no: '12345', institution_no: '003' },
    });
  });
});

describe('Add Wire Account modal (spec §2, §4, §5 Wire bank fields)', () => {
  beforeEach(resetSession);

  it("starts in the user's country and shows every bank rule in the spec words", async () => {
    paymentApi([]);
    const { user } = renderApp('/payment-method-list');
    const modal = await openWireModal(user);
    expect(within(modal).getByLabelText<HTMLSelectElement>('Country').value, "the user's country").toBe('CA');
    const bank = within(modal).getByRole('group', { name: 'Bank' });
    await user.click(within(modal).getByRole('button', { name: 'Save Wire Account' }));
    for (const [label, text] of [
      ['Bank Name', 'Please enter Bank Name'],
      ['Bank Address', 'Please enter Bank Address'],
      ['Bank City', 'Please enter Bank City'],
      ['Bank Country', 'Please enter Bank Country'],
      ['Bank Province', 'Please enter Bank Province'],
      ['Bank Postal/Zip Code', 'Please enter Bank Postal/Zip Code'],
      ['Account Number', 'Please enter Account Number'],
      ['SWIFT Code', 'Please enter SWIFT Code'],
      ['IBAN', 'Please enter IBAN'],
      ['Unit Number', 'Please enter Unit Number'],
    ] as const) {
      const field = await within(bank).findByLabelText(label);
      expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent, label).toBe(text);
    }
    await user.type(within(bank).getByLabelText('SWIFT Code'), 'BLC');
    expect(await within(bank).findByText('Please enter at least 5 characters SWIFT Code')).toBeTruthy();
    await user.type(within(bank).getByLabelText('Bank Postal/Zip Code'), 'H3G 0E5');
    await user.tab();
    expect(await within(bank).findByText('Please select country first')).toBeTruthy();
    await user.selectOptions(within(bank).getByLabelText('Bank Country'), 'US');
    await user.click(within(modal).getByRole('button', { name: 'Save Wire Account' }));
    expect(
      await within(bank).findByText('Please enter valid Postal/Zip Code'),
      'the contract words it without Bank',
    ).toBeTruthy();
  });

  it('sends the bank details as instructions, with the account number beside them too, then closes and reloads the list', async () => {
    const methods: ReturnType<typeof storedCard>[] = [];
    const api = paymentApi(methods, {
      'POST /api/wallet/add-pay-method': () => {
        methods.push(
          storedCard({ type: 'WIRE', brand: 'WIRE Account', icon: 'wire', number: '******7788', type_specific: {} }),
        );
        return ok({ payment_method: methods[0] });
      },
    });
    const { user } = renderApp('/payment-method-list');
    const modal = await openWireModal(user);
    const holder = within(modal).getByRole('group', { name: 'Account Holder' });
    await user.type(within(holder).getByLabelText('First Name'), 'Anne');
    await user.type(within(holder).getByLabelText('Last Name'), 'Tremblay');
    await user.type(within(holder).getByLabelText('Address'), '100 Rideau St');
    await user.type(within(holder).getByLabelText('City'), 'Ottawa');
    await user.selectOptions(within(holder).getByLabelText('Province'), 'ON');
    await user.type(within(holder).getByLabelText('Postal/Zip Code'), 'K1N 5X8');
    const bank = within(modal).getByRole('group', { name: 'Bank' });
    await user.type(within(bank).getByLabelText('Bank Name'), 'Banque Laurentienne');
    await user.type(within(bank).getByLabelText('Bank Address'), '1360 Boulevard René-Lévesque');
    await user.type(within(bank).getByLabelText('Bank City'), 'Montreal');
    await user.selectOptions(within(bank).getByLabelText('Bank Country'), 'CA');
    await user.selectOptions(within(bank).getByLabelText('Bank Province'), 'QC');
    await user.type(within(bank).getByLabelText('Bank Postal/Zip Code'), 'H3G 0E5');
    await user.type(within(bank).getByLabelText('Account Number'), '4455667788');
    await user.type(within(bank).getByLabelText('SWIFT Code'), 'BLCMCAMM');
    await user.type(within(bank).getByLabelText('IBAN'), 'CA0012345');
    await user.type(within(bank).getByLabelText('Unit Number'), '1x2');
    await user.click(within(modal).getByRole('button', { name: 'Save Wire Account' }));

    expect(await screen.findByText('You have 1 Payment Methods.')).toBeTruthy();
    expect(await findToast('Wire Account added successfully.')).toBeTruthy();
    expect(api.sent('POST', '/api/wallet/add-pay-method')[0]?.body).toEqual({
      type: 'WIRE',
      billing_address: {
        name_first: 'Anne',
        name_last: 'Tremblay',
        address1: '100 Rideau St',
        address2: '',
        city: 'Ottawa',
        province: 'ON',
        postal_code: 'K1N 5X8',
        country: 'CA',
      },
      type_specific: {
        account_no: '4455667788',
        instructions: {
          bank_name: 'Banque Laurentienne',
          bank_address: '1360 Boulevard René-Lévesque',
          bank_city: 'Montreal',
          bank_province: 'QC',
          bank_postal_code: 'H3G 0E5',
          bank_country: 'CA',
          account_no: '4455667788',
          bank_swift_code: 'BLCMCAMM',
          iban_no: 'CA0012345',
          unit_no: '12',
        },
      },
    });
  });
});
