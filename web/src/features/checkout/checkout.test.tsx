import type { CheckoutSession } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, held, ok, refused, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';

const TOKEN = 'tK3n_0123456789abcdefghijABCDEFGHIJ-klmnopq';
const PATH = `/checkout?id=41&token=${TOKEN}`;

function checkout(overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  return {
    id: 41,
    merchant_id: 3,
    merchant_name: 'Demo Coffee',
    cart: [
      { sku: 'LAT', name: 'Latte', price: 450 },
      { sku: 'CRS', name: 'Croissant', price: 325 },
    ],
    total: 775,
    currency: 'USD',
    state: 'open',
    expires_at: '2026-11-25T23:00:00.000Z',
    success_url: 'https://shop.example/thanks',
    tx_id: null,
    ...overrides,
  };
}

const line = (currency: string, available: number) => ({
  currency,
  balance: available,
  available_balance: available,
  withdrawable_balance: available,
  combined: currency === 'CON',
});
const balanceOf = (usd: number) => ({
  currency: 'CON',
  balance: 0,
  available_balance: 0,
  withdrawable_balance: 0,
  balances: [line('CON', 0), line('USD', usd)],
});

const card = {
  payment_method_id: 9,
  paymentMethodId: 9,
  type: 'CC',
  state: 'E',
  validated: 'V',
  entry_date: '2026-11-01 10:00:00',
  is_default: true,
  selected: false,
  brand: 'Visa',
  number: '**** 4242',
  icon: 'visa',
  billing_address: {},
  shipping_address: null,
  type_specific: {},
};

function paid(amount: number) {
  return transactionView({
    tx_id: 'checkout_abc123',
    entry_date: '2026-11-25 22:00:00',
    merchant_id: 3,
    type: 'PAYMENT',
    tx_class: 'PAYMENT',
    amount,
    currency: 'USD',
    cart: checkout().cart,
  });
}

function signedInApi(handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }),
    'GET /api/checkout/session': () => ok({ checkout: checkout() }),
    'GET /api/account/balance': () => ok({ balance: balanceOf(10_000) }),
    'POST /api/account/pay-method': () => ok({ methods: [card], total: 1 }),
    'POST /api/checkout/pay': () => ok({ transaction: paid(775), quote: null }),
    ...handlers,
  });
}

beforeEach(() => {
  resetSession();
  // The balance read starts afresh with the query cache, which testing/setup.ts clears.
});

describe('the Checkout page (spec §2 "Checkout page (id, token)")', () => {
  it('shows a skeleton while the purchase loads, then the cart lines with their prices and the total', async () => {
    const summary = held();
    fakeApi({ 'GET /api/checkout/session': () => summary.answer });
    renderApp(PATH);
    expect(await screen.findByText('Loading the purchase…')).toBeTruthy();
    summary.release(ok({ checkout: checkout() }));
    const cart = await screen.findByRole('table', { name: 'Cart' });
    expect(within(cart).getByRole('row', { name: 'Latte $4.50 USD' })).toBeTruthy();
    expect(within(cart).getByRole('row', { name: 'Croissant $3.25 USD' })).toBeTruthy();
    expect(within(cart).getByRole('row', { name: 'Total $7.75 USD' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your purchase at Demo Coffee' })).toBeTruthy();
  });

  it("reads 'No such a transaction' for an unknown session or a wrong token", async () => {
    const api = fakeApi({
      'GET /api/checkout/session': () => refused(404, [{ code: 40402, field: 'id', message: 'No such a transaction' }]),
    });
    renderApp(PATH);
    expect(await screen.findByText('No such a transaction')).toBeTruthy();
    expect(api.sent('GET', '/api/checkout/session')).toHaveLength(1);
  });

  it('without an id and a token asks the server nothing and reads No such a transaction', async () => {
    const bare = fakeApi();
    renderApp('/checkout?id=41');
    expect(await screen.findByText('No such a transaction')).toBeTruthy();
    expect(bare.sent('GET', '/api/checkout/session')).toHaveLength(0);
  });

  it('a guest sees the login box and the payment options; a wrong password reads Invalid Login', async () => {
    fakeApi({
      'GET /api/checkout/session': () => ok({ checkout: checkout() }),
      'POST /api/login': () => refused(401, [{ code: 1006, message: 'Incorrect Username/Email or Password' }]),
    });
    const { user } = renderApp(PATH);
    const login = await screen.findByRole('form', { name: 'Log in to pay' });
    expect(screen.getByText('Pay With Debit Or Credit')).toBeTruthy();
    expect(screen.getByText('Email Money Transfer')).toBeTruthy();

    await user.click(within(login).getByRole('button', { name: 'Log In' }));
    expect(await within(login).findByText('Please enter Username/Email')).toBeTruthy();
    await user.type(within(login).getByLabelText('Username/Email'), 'anne_tremblay');
    await user.type(within(login).getByLabelText('Password'), 'short');
    await user.click(within(login).getByRole('button', { name: 'Log In' }));
    expect(await within(login).findByText('Password must have at least 6 characters')).toBeTruthy();

    await user.type(within(login).getByLabelText('Password'), '-wrong');
    await user.click(within(login).getByRole('button', { name: 'Log In' }));
    expect((await within(login).findByRole('alert', { name: '' })).textContent).toContain('Invalid Login');
  });

  it('signing in on the page shows the payer panel for the same purchase', async () => {
    const api = fakeApi({
      'GET /api/checkout/session': () => ok({ checkout: checkout() }),
      'POST /api/login': () => ok({ user: sessionUser(), csrfToken: 'csrf-after-login' }),
      'GET /api/account/balance': () => ok({ balance: balanceOf(10_000) }),
      'POST /api/account/pay-method': () => ok({ methods: [card], total: 1 }),
    });
    const { user, router } = renderApp(PATH);
    const login = await screen.findByRole('form', { name: 'Log in to pay' });
    await user.type(within(login).getByLabelText('Username/Email'), 'anne_tremblay');
    await user.type(within(login).getByLabelText('Password'), 'correct horse');
    await user.click(within(login).getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('button', { name: 'Process My Payment' })).toBeTruthy();
    expect(router.state.location.search).toBe(`?id=41&token=${TOKEN}`);
    expect(api.sent('POST', '/api/login')[0]?.body).toEqual({ username: 'anne_tremblay', password: 'correct horse' });
  });

  it('a signed-in buyer sees the wallet balance, saved cards and Add another credit card, and pays from the wallet once', async () => {
    const payment = held();
    const api = signedInApi({ 'POST /api/checkout/pay': () => payment.answer });
    const { user } = renderApp(PATH);
    const wallet = await screen.findByRole<HTMLInputElement>('radio', { name: /Wallet balance \$100\.00 USD/ });
    expect(wallet.checked).toBe(true);
    expect((await screen.findByRole<HTMLInputElement>('radio', { name: 'Visa **** 4242' })).checked).toBe(false);
    expect(screen.getByRole('link', { name: 'Add another credit card' }).getAttribute('href')).toBe(
      '/payment-method-list',
    );
    expect(screen.getByText('Email Money Transfer')).toBeTruthy();

    const process = screen.getByRole('button', { name: 'Process My Payment' });
    await user.click(process);
    await user.click(process);
    expect(api.sent('POST', '/api/checkout/pay')).toHaveLength(1);
    const sent = api.sent('POST', '/api/checkout/pay')[0];
    expect(sent?.body).toEqual({ id: 41, token: TOKEN });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent?.headers['x-csrf-token']).toBe('csrf-signed-in');

    payment.release(ok({ transaction: paid(775), quote: null }));
    const receipt = await screen.findByRole('region', { name: 'Payment received' });
    expect(within(receipt).getByRole('status').textContent).toContain('$7.75 USD paid to Demo Coffee.');
    expect(within(receipt).getByText('checkout_abc123')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'Return to Demo Coffee' }).getAttribute('href')).toBe(
      'https://shop.example/thanks',
    );
    expect(screen.queryByRole('button', { name: 'Process My Payment' })).toBeNull();
  });

  it('a retry after a lost answer keeps the Idempotency-Key; a card is sent as paymentMethodId', async () => {
    let answers = 0;
    const api = signedInApi({
      'POST /api/checkout/pay': () => {
        answers += 1;
        return answers === 1
          ? refused(503, [{ code: 50300, message: 'Service unavailable' }])
          : ok({ transaction: paid(775), quote: null });
      },
    });
    const { user } = renderApp(PATH);
    await user.click(await screen.findByRole('radio', { name: 'Visa **** 4242' }));
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/./);
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    await screen.findByRole('region', { name: 'Payment received' });
    const [first, second] = api.sent('POST', '/api/checkout/pay');
    expect(first?.body).toEqual({ id: 41, token: TOKEN, paymentMethodId: 9 });
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('a USD total with coins and no dollars: the quote in coins before paying, sent with its quote_id; a 409 shows a fresh quote', async () => {
    const quote = (quoteId: string) => ({
      quote_id: quoteId,
      from_currency: 'CON',
      to_currency: 'USD',
      amount_in: 155_00,
      amount_out: 7_75,
      fee: 0,
      rate: '20',
      rate_micros: 20_000_000,
      usd_rate_micros: 1_000_000,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    let quotes = 0;
    let pays = 0;
    const api = signedInApi({
      'GET /api/account/balance': () =>
        ok({ balance: { ...balanceOf(0), balances: [line('CON', 200_00), line('USD', 0)] } }),
      'POST /api/account/quote': () => ok({ quote: quote(`qt_${String(++quotes)}`) }),
      'POST /api/checkout/pay': () =>
        ++pays === 1
          ? refused(409, [{ code: 40930, field: 'quote_id', message: 'The quote has expired' }])
          : ok({ transaction: { ...paid(155_00), currency: 'CON' }, quote: quote('qt_2') }),
    });
    const { user } = renderApp(PATH);
    expect(await screen.findByRole('radio', { name: /Wallet balance 200\.00 Coins/ })).toBeTruthy();
    expect(await screen.findByText('Paid from your coins at this quote, to Demo Coffee:')).toBeTruthy();
    const line1 = await screen.findByTestId('coin-quote');
    expect(line1.textContent).toMatch(
      /^\$7\.75 USD = 155\.00 Coins · 20 Coins per USD · fee \$0\.00 USD · expires in \d+ s$/,
    );
    expect(screen.queryByText('Insufficient funds')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    expect(await screen.findByText(/The quote changed before you confirmed/)).toBeTruthy();
    await waitFor(() => {
      expect(quotes).toBe(2);
    });
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    const receipt = await screen.findByRole('region', { name: 'Payment received' });
    // The price paid, and what left the wallet for it.
    expect(within(receipt).getByRole('status').textContent).toContain('$7.75 USD paid to Demo Coffee.');
    expect(within(receipt).getByText('Paid with').nextElementSibling?.textContent).toBe('155.00 Coins');
    const [first, second] = api.sent('POST', '/api/checkout/pay');
    expect(first?.body).toEqual({ id: 41, token: TOKEN, quote_id: 'qt_1' });
    expect(second?.body).toEqual({ id: 41, token: TOKEN, quote_id: 'qt_2' });
  });

  it('with too little in the wallet says Insufficient funds and offers Add Funds; a card can still pay', async () => {
    const api = signedInApi({ 'GET /api/account/balance': () => ok({ balance: balanceOf(500) }) });
    const { user } = renderApp(PATH);
    await waitFor(() => {
      expect(screen.getByText('Insufficient funds').closest('[role="alert"]')?.textContent).toBe(
        'Insufficient fundsYour wallet needs $2.75 USD more. Add funds, or pay with a card.Add Funds',
      );
    });
    expect(screen.getByRole('link', { name: 'Add Funds' }).getAttribute('href')).toBe('/?deposit=choose');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Process My Payment' }).disabled).toBe(true);

    await user.click(await screen.findByRole('radio', { name: 'Visa **** 4242' }));
    expect(screen.queryByText('Insufficient funds')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    await screen.findByRole('region', { name: 'Payment received' });
    expect(api.sent('POST', '/api/checkout/pay')).toHaveLength(1);
  });

  it("the server's Insufficient funds refusal is shown on the page", async () => {
    signedInApi({
      'POST /api/checkout/pay': () => refused(422, [{ code: 42201, message: 'Insufficient funds' }]),
    });
    const { user } = renderApp(PATH);
    await screen.findByRole('radio', { name: /Wallet balance \$100\.00 USD/ });
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Insufficient funds');
  });

  it('a paid purchase offers nothing more to pay', async () => {
    signedInApi({
      'GET /api/checkout/session': () => ok({ checkout: checkout({ state: 'paid', tx_id: 'checkout_x' }) }),
    });
    renderApp(PATH);
    expect(await screen.findByRole('region', { name: 'Already paid' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Process My Payment' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Return to Demo Coffee' })).toBeTruthy();
  });

  it('a purchase someone else paid meanwhile reads No such a transaction when this buyer presses pay', async () => {
    signedInApi({
      'POST /api/checkout/pay': () => refused(404, [{ code: 40402, field: 'id', message: 'No such a transaction' }]),
    });
    const { user } = renderApp(PATH);
    await screen.findByRole('radio', { name: /Wallet balance \$100\.00 USD/ });
    await user.click(screen.getByRole('button', { name: 'Process My Payment' }));
    expect(await screen.findByText('No such a transaction')).toBeTruthy();
  });

  it('an expired purchase says so and cannot be paid', async () => {
    signedInApi({ 'GET /api/checkout/session': () => ok({ checkout: checkout({ state: 'expired' }) }) });
    renderApp(PATH);
    expect((await screen.findByRole('region', { name: 'Checkout expired' })).textContent).toContain(
      'This checkout link has expired. Return to Demo Coffee to start again.',
    );
    expect(screen.queryByRole('button', { name: 'Process My Payment' })).toBeNull();
  });

  it('a failure to load offers Try Again', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/checkout/session': () => {
        calls += 1;
        return calls === 1 ? refused(503, [{ code: 50300, message: 'down' }]) : ok({ checkout: checkout() });
      },
    });
    const { user } = renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('table', { name: 'Cart' })).toBeTruthy();
  });
});
