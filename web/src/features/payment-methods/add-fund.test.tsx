import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PurchaseRequest } from '@peeks/contracts';
import { findToast, ok, refused, renderApp, resetSession, type Answer } from '../../testing/app.tsx';
import { quoteFor, staleQuote } from '../../testing/quotes.ts';
import { transactionView } from '../../testing/transactions.ts';
import { paymentApi, storedCard } from './testing.ts';

/** The API's answer to a purchase: its transaction, the quote it named, and what the card was charged. */
const approved = (body: unknown) => {
  const request = body as PurchaseRequest;
  const quote = quoteFor({ from_currency: 'USD', to_currency: 'CON', amount_out: request.coin_amt }, 0, {
    quote_id: request.quote_id ?? 'qt_current',
  });
  return ok({
    transaction: purchaseTransaction(),
    quote,
    funding: { amount: quote.amount_in, currency: 'USD', label: 'Visa •••• 4242' },
  });
};
/** The transaction a purchase of 200 coins answers (the contract's shape, checked on arrival). */
function purchaseTransaction() {
  return transactionView({
    tx_id: 'tx-1',
    type: 'purchase',
    tx_class: 'PURCHASE_COINS',
    debit_credit: 'C',
    amount: 20_000,
    payment_method_type: 'CC',
    payment_method: '11',
  });
}

/** A promise the test settles when it chooses, to hold a call in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

async function fill(user: ReturnType<typeof renderApp>['user'], amount: string) {
  const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
  await user.type(await within(modal).findByLabelText('Amount'), amount);
  await user.selectOptions(within(modal).getByLabelText('Payment Method'), 'VISA ************4242');
  // The quote for the amount shows before anything can be charged.
  await within(modal).findByTestId('quote-get');
  return modal;
}

describe('/add-fund, the Add Fund page (spec §2, §4, §5 Amounts, §8)', () => {
  beforeEach(resetSession);

  it('is a static modal with a loading overlay while the payment methods load', async () => {
    const methods = deferred<Answer>();
    paymentApi([], { 'POST /api/account/pay-method': () => methods.promise });
    const { user } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    expect(within(modal).getByRole('status').textContent).toBe('Please wait…');
    expect(within(modal).queryByRole('button', { name: 'Close' }), 'static: no close button').toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Add Fund' }), 'static: Escape does not close it').toBeTruthy();
    methods.resolve(
      ok({
        methods: [
          storedCard(),
          storedCard({ payment_method_id: 13, type: 'WIRE', brand: 'WIRE Account', number: '******7788' }),
        ],
        total: 2,
      }),
    );
    const select = await within(modal).findByLabelText('Payment Method');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
      'cards only: a purchase charges a card',
    ).toEqual(['--Select Payment Method--', 'VISA ************4242']);
    expect(within(modal).queryByRole('status')).toBeNull();
  });

  it('checks the amount and the payment method in the spec words, refuses a decimal point rather than dropping it, and shows the coins the amount buys', async () => {
    // Two cards, neither the default: nothing is chosen for the user.
    paymentApi([
      storedCard({ is_default: false }),
      storedCard({ payment_method_id: 12, paymentMethodId: 12, number: '************4444', is_default: false }),
    ]);
    const { user } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.click(await within(modal).findByRole('button', { name: 'Confirm Deposit' }));
    expect(await within(modal).findByText('Please enter amount')).toBeTruthy();
    expect(within(modal).getByText('Please select Payment Method')).toBeTruthy();
    const amount = within(modal).getByLabelText<HTMLInputElement>('Amount');
    expect(document.activeElement, 'the amount has the focus once the form shows').toBe(amount);
    expect(amount.getAttribute('aria-describedby')).toContain(within(modal).getByText('Please enter amount').id);

    for (const [typed, text] of [
      ['0', 'Please enter amount should be greater than 1'],
      ['501', 'Please enter amount should be less than 500'],
      ['1000', 'Please enter at most 3 characters amount'],
    ] as const) {
      await user.clear(amount);
      await user.type(amount, typed);
      expect(await within(modal).findByText(text), typed).toBeTruthy();
    }
    // Issue 22: '1.50' used to lose its point silently and buy 150 dollars of coins. It is kept, and refused.
    await user.clear(amount);
    await user.type(amount, '1.50');
    expect(amount.value).toBe('1.50');
    expect(await within(modal).findByText('Please enter valid amount')).toBeTruthy();
    expect(within(modal).queryByTestId('quote'), 'no quote for an amount refused').toBeNull();
    await user.clear(amount);
    await user.type(amount, '10');
    expect((await within(modal).findByTestId('quote-get')).textContent).toBe('200.00 Coins');
    await waitFor(() => {
      expect(within(modal).queryByText(/^Please enter/)).toBeNull();
    });
  });

  it("buys the coins the amount pays for with the card, with an Idempotency-Key, shows 'Success' and reloads the balance; OK goes to /", async () => {
    const api = paymentApi([storedCard()], { 'POST /api/account/purchase': approved });
    const { user, router } = renderApp('/add-fund');
    const modal = await fill(user, '10');
    // The dashboard layout read the balance when it opened; the purchase reads it once more.
    const balanceReads = api.sent('GET', '/api/account/balance').length;
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));

    const success = await screen.findByRole('dialog', { name: 'Success' });
    expect(within(success).getByText('Fund deposit successfully')).toBeTruthy();
    // Issue 22: the page behind the dialog was blank; it says what happened, and a toast says it too.
    // Shown behind the modal, which hides it from screen readers while it is open.
    expect(screen.getByRole('heading', { level: 1, name: 'Add Fund', hidden: true })).toBeTruthy();
    expect(screen.getAllByText('200 Coins were added to your wallet.')).toHaveLength(2);
    expect(await findToast('Fund deposit successfully')).toBeTruthy();
    const [call] = api.sent('POST', '/api/account/purchase');
    expect(call?.body, 'the purchase names the quote shown').toEqual({
      payment_method_id: 11,
      coin_amt: 20_000,
      currency: 'USD',
      quote_id: api.quotes.last()?.quote_id,
    });
    expect(within(success).getByTestId('charged').textContent).toBe('Visa •••• 4242 was charged $10.00 USD.');
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(call?.headers['x-csrf-token']).toBe('csrf-signed-in');
    await waitFor(() => {
      expect(api.sent('GET', '/api/account/balance')).toHaveLength(balanceReads + 1);
    });
    await user.click(within(success).getByRole('button', { name: 'OK' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it("a declined card (4000…0002) shows 'Error' with the server's text; Try Again gives a fresh form, Cancel goes to /", async () => {
    const api = paymentApi([storedCard({ number: '************0002' })], {
      'POST /api/account/purchase': () =>
        refused(422, [{ code: 42250, field: 'payment_method_id', message: 'Your card was declined' }]),
    });
    const { user, router } = renderApp('/add-fund');
    let modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.type(await within(modal).findByLabelText('Amount'), '25');
    await user.selectOptions(within(modal).getByLabelText('Payment Method'), 'VISA ************0002');
    await within(modal).findByTestId('quote-get');
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));

    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(error).getByRole('alert').textContent).toBe('Your card was declined');
    expect(screen.queryByRole('dialog', { name: 'Success' })).toBeNull();
    await user.click(within(error).getByRole('button', { name: 'Try Again' }));
    modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    expect(within(modal).getByLabelText<HTMLInputElement>('Amount').value, 'the form is reset').toBe('');
    expect(within(modal).getByLabelText<HTMLSelectElement>('Payment Method').value, 'the default card again').toBe(
      '11',
    );

    await user.type(within(modal).getByLabelText('Amount'), '25');
    await user.selectOptions(within(modal).getByLabelText('Payment Method'), 'VISA ************0002');
    await within(modal).findByTestId('quote-get');
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));
    const [first, second] = api.sent('POST', '/api/account/purchase');
    expect(second?.headers['idempotency-key'], 'a new attempt after a refusal').not.toBe(
      first?.headers['idempotency-key'],
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Error' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(router.state.location.pathname).toBe('/');
  });

  it("says 'Something went wrong' when the methods cannot be loaded, Try Again loads them again, and Go Back goes to /", async () => {
    let down = true;
    paymentApi([storedCard()], {
      'POST /api/account/pay-method': () =>
        down
          ? refused(503, [{ code: 50300, message: 'Service unavailable' }])
          : ok({ methods: [storedCard()], total: 1 }),
    });
    const { user, router } = renderApp('/add-fund');
    let error = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(error).getByRole('alert').textContent).toBe('Something went wrong');
    down = false;
    await user.click(within(error).getByRole('button', { name: 'Try Again' }));
    expect(
      await within(await screen.findByRole('dialog', { name: 'Add Fund' })).findByLabelText('Payment Method'),
    ).toBeTruthy();

    down = true;
    await router.navigate('/payment-method-list');
    await screen.findByRole('heading', { name: 'Payment Methods' });
    await router.navigate('/add-fund');
    error = await screen.findByRole('dialog', { name: 'Error' });
    await user.click(within(error).getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/');

    // The dashboard's screen loads as its own chunk: the Error dialog stays until it has replaced it.
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Error' })).toBeNull();
    });
    paymentApi([storedCard()]);
    await router.navigate('/add-fund');
    await user.click(
      await within(await screen.findByRole('dialog', { name: 'Add Fund' })).findByRole('button', { name: 'Go Back' }),
    );
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('/add-fund after issue 22', () => {
  beforeEach(resetSession);

  it('preselects the default card', async () => {
    paymentApi([
      storedCard({ is_default: false }),
      storedCard({ payment_method_id: 12, paymentMethodId: 12, number: '************4444', is_default: true }),
    ]);
    renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    expect((await within(modal).findByLabelText<HTMLSelectElement>('Payment Method')).value).toBe('12');
  });

  it('returns to the dashboard by itself once the success has been read', async () => {
    paymentApi([storedCard()], { 'POST /api/account/purchase': approved });
    const { user, router } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.type(await within(modal).findByLabelText('Amount'), '10');
    await within(modal).findByTestId('quote-get');
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));
    await screen.findByRole('dialog', { name: 'Success' });
    await waitFor(
      () => {
        expect(router.state.location.pathname).toBe('/');
      },
      { timeout: 4_500 },
    );
  });
});

describe('/add-fund never charges twice for one attempt', () => {
  beforeEach(resetSession);

  it('a double click sends one purchase', async () => {
    const answer = deferred<Answer>();
    const api = paymentApi([storedCard()], { 'POST /api/account/purchase': () => answer.promise });
    const { user } = renderApp('/add-fund');
    const modal = await fill(user, '10');
    const form = within(modal).getByRole('button', { name: 'Confirm Deposit' }).closest('form')!;
    // Two submits before the first answer, as a fast double click delivers them before the button can be disabled.
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/purchase')).toHaveLength(1);
    });
    answer.resolve(approved(api.sent('POST', '/api/account/purchase')[0]?.body));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toBeTruthy();
    expect(api.sent('POST', '/api/account/purchase')).toHaveLength(1);
  });

  it('a retry of the same purchase after a lost answer keeps its Idempotency-Key, so the server answers it with the first outcome', async () => {
    let calls = 0;
    const api = paymentApi([storedCard()], {
      'POST /api/account/purchase': (body) => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return approved(body);
      },
    });
    const { user } = renderApp('/add-fund');
    await user.click(within(await fill(user, '10')).getByRole('button', { name: 'Confirm Deposit' }));
    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(
      within(error).getByText('The service could not be reached. Check your connection and try again.'),
    ).toBeTruthy();
    await user.click(within(error).getByRole('button', { name: 'Try Again' }));
    await user.click(within(await fill(user, '10')).getByRole('button', { name: 'Confirm Deposit' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toBeTruthy();
    const [lost, retried] = api.sent('POST', '/api/account/purchase');
    expect(retried?.headers['idempotency-key']).toBe(lost?.headers['idempotency-key']);
  });
});

describe('/add-fund quotes the coins before the card is charged (issue 35)', () => {
  beforeEach(resetSession);

  it('shows what the card is charged, the coins, the rate, the fee of 0.00 and the expiry before Confirm; nothing is charged first', async () => {
    const api = paymentApi([storedCard()], { 'POST /api/account/purchase': approved });
    const { user } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.type(await within(modal).findByLabelText('Amount'), '25');
    const quote = await within(modal).findByTestId('quote');
    expect([...quote.querySelectorAll('dt, dd')].map((cell) => cell.textContent)).toEqual([
      'Your card is charged',
      '$25.00 USD',
      'Coins you get',
      '500.00 Coins',
      'Rate',
      '1 USD = 20 Coins',
      'Fee',
      '$0.00 USD',
    ]);
    expect(within(modal).getByText(/^Good for \d+ s more$/)).toBeTruthy();
    expect(api.sent('POST', '/api/account/quote').at(-1)?.body).toEqual({
      from_currency: 'USD',
      to_currency: 'CON',
      amount_out: 50_000,
    });
    expect(api.sent('POST', '/api/account/purchase'), 'nothing charged before Confirm').toHaveLength(0);
  });

  it('a Confirm before the quote has shown only shows it: the card is charged on the next Confirm, at that quote', async () => {
    const api = paymentApi([storedCard()], { 'POST /api/account/purchase': approved });
    const { user } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.type(await within(modal).findByLabelText('Amount'), '10');
    const form = within(modal).getByRole('button', { name: 'Confirm Deposit' }).closest('form')!;
    fireEvent.submit(form);
    expect((await within(modal).findByTestId('quote-get')).textContent).toBe('200.00 Coins');
    expect(api.sent('POST', '/api/account/purchase')).toHaveLength(0);
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));
    await screen.findByRole('dialog', { name: 'Success' });
    expect((api.sent('POST', '/api/account/purchase')[0]?.body as PurchaseRequest).quote_id).toBe(
      api.quotes.last()?.quote_id,
    );
  });

  it('an expired quote (409) shows the fresh one and asks again instead of an error; the next Confirm names the fresh quote', async () => {
    let first = true;
    const fresh = quoteFor({ from_currency: 'USD', to_currency: 'CON', amount_out: 20_000 }, 77, {
      amount_in: 1_040,
    });
    const api = paymentApi([storedCard()], {
      'POST /api/account/purchase': (body) => {
        if (!first) return approved(body);
        first = false;
        return staleQuote(fresh);
      },
    });
    const { user } = renderApp('/add-fund');
    const modal = await fill(user, '10');
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));
    expect(await within(modal).findByText('The quote changed. Check the new one and confirm again.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Error' })).toBeNull();
    expect(within(modal).getByTestId('quote-pay').textContent, 'the fresh quote is shown').toBe('$10.40 USD');
    await user.click(within(modal).getByRole('button', { name: 'Confirm Deposit' }));
    await screen.findByRole('dialog', { name: 'Success' });
    const [stale, confirmed] = api.sent('POST', '/api/account/purchase');
    expect((stale?.body as PurchaseRequest).quote_id).toBe('qt_1');
    expect((confirmed?.body as PurchaseRequest).quote_id).toBe('qt_77');
    expect(confirmed?.headers['idempotency-key'], 'a new attempt after the 409').not.toBe(
      stale?.headers['idempotency-key'],
    );
  });

  it('asks for a new quote when the one shown expires', async () => {
    const api = paymentApi([storedCard()], {
      'POST /api/account/quote': (body) =>
        ok({
          quote: quoteFor(body as never, api.sent('POST', '/api/account/quote').length, {
            expires_at: new Date(Date.now() + 1_200).toISOString(),
          }),
        }),
    });
    const { user } = renderApp('/add-fund');
    const modal = await screen.findByRole('dialog', { name: 'Add Fund' });
    await user.type(await within(modal).findByLabelText('Amount'), '10');
    await within(modal).findByTestId('quote-get');
    const asked = api.sent('POST', '/api/account/quote').length;
    await waitFor(
      () => {
        expect(api.sent('POST', '/api/account/quote').length).toBeGreaterThan(asked);
      },
      { timeout: 4_000 },
    );
  });
});
