import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  FakeLiveSocket,
  fakeApi,
  held,
  ok,
  refused,
  renderApp,
  resetSession,
  sessionUser,
  type Handler,
} from '../../testing/app.tsx';
import { storedCard } from '../../testing/payment-methods.ts';
import { quoteApi, quoteFor, staleQuote } from '../../testing/quotes.ts';
import { transactionView } from '../../testing/transactions.ts';

const line = (currency: string, available: number, withdrawable: number) => ({
  currency,
  balance: available,
  available_balance: available,
  withdrawable_balance: withdrawable,
  combined: currency === 'CON',
});
/** 100.00 coins, of which 40.00 on hold: 60.00 withdrawable. */
const balance = {
  currency: 'CON',
  balance: 10_000,
  available_balance: 10_000,
  withdrawable_balance: 6_000,
  balances: [line('CON', 10_000, 6_000), line('USD', 2_000, 2_000)],
};
const debitCard = storedCard({ type_specific: {} });

const withdrawal = (state: string, amount = 2_500) =>
  transactionView({
    tx_id: 'tx_w1',
    state,
    type: 'withdraw',
    tx_class: 'WithdrawalRequested',
    amount,
    payment_method_type: 'CC',
  });

/** The API's answer to a withdrawal: the transaction, the quote of coins, the payout by name. */
function withdrawn(body: unknown, state = 'pending') {
  const request = body as { amount: number; currency: string; payout_currency?: 'USD' | 'CAD'; quote_id?: string };
  const quote =
    request.currency === 'CON'
      ? quoteFor(
          { from_currency: 'CON', to_currency: request.payout_currency ?? 'USD', amount_in: request.amount },
          0,
          { quote_id: request.quote_id ?? 'qt_current' },
        )
      : null;
  return ok({
    transaction: withdrawal(state, request.amount),
    quote,
    payout: {
      amount: quote ? quote.amount_out : request.amount,
      currency: quote ? quote.to_currency : request.currency,
      label: 'Visa •••• 4242',
    },
  });
}

function withdrawApi({ pinSet = false, methods = [debitCard] } = {}, handlers: Record<string, Handler> = {}) {
  const quotes = quoteApi();
  const api = fakeApi({
    'POST /api/account/quote': quotes.handler,
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'GET /api/account/balance': () => ok({ balance }),
    'POST /api/account/pay-method': () => ok({ methods, total: methods.length }),
    'GET /api/user/security-settings': () => ok({ pin_set: pinSet, pin_locked_until: null, security_questions: [] }),
    'POST /api/account/withdraw': (body) => withdrawn(body),
    ...handlers,
  });
  return { ...api, quotes };
}

async function openWithdraw() {
  const view = renderApp('/wallet');
  await view.user.click(await screen.findByRole('button', { name: 'Withdraw' }));
  const dialog = await screen.findByRole('dialog', { name: 'Withdraw Funds' });
  await within(dialog).findByLabelText('Amount');
  return { ...view, dialog };
}

describe('Withdraw Funds', () => {
  beforeEach(() => {
    resetSession();
    // The balance read starts afresh with the query cache, which testing/setup.ts clears.
  });

  it('shows what is withdrawable, preselects the default card, and stops an amount above it before sending', async () => {
    const api = withdrawApi();
    const { user, dialog } = await openWithdraw();
    expect(within(dialog).getByText('Withdrawable: 60.00 Coins')).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Withdraw to').value).toBe('11');
    expect(within(dialog).queryByLabelText('PIN')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Please enter amount')).toBeTruthy();
    // 60.01 is available but part of it is on hold.
    await user.type(within(dialog).getByLabelText('Amount'), '60.01');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      within(dialog).getByText('Insufficient withdrawable funds: part of the balance is on hold').getAttribute('role'),
    ).toBe('alert');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'USD');
    expect(within(dialog).getByText('Withdrawable: $20.00 USD')).toBeTruthy();
    expect(api.sent('POST', '/api/account/withdraw')).toHaveLength(0);
  });

  it('says when coins bought by card can be withdrawn as cash, and stops an amount that needs them', async () => {
    // The 40.00 not withdrawable is coins bought by card, maturing on 28 November.
    const maturing = { ...balance, card_funds_on_hold: 4_000, card_funds_release_at: '2026-11-28T12:00:00.000Z' };
    const api = withdrawApi({}, { 'GET /api/account/balance': () => ok({ balance: maturing }) });
    const { user, dialog } = await openWithdraw();
    const note = /Coins bought by card, 40\.00 Coins, can be withdrawn as cash from Nov 2[89], 2026/;
    expect(within(dialog).getByText(note)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Amount'), '60.01');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      within(dialog)
        .getAllByRole('alert')
        .some((alert) => note.test(alert.textContent)),
    ).toBe(true);
    expect(api.sent('POST', '/api/account/withdraw')).toHaveLength(0);
  });

  it('names insufficient funds, not a hold, for more than the balance itself', async () => {
    const api = withdrawApi();
    const { user, dialog } = await openWithdraw();
    // $20.00 USD, none of it on hold: $20.01 is more than there is.
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'USD');
    await user.type(within(dialog).getByLabelText('Amount'), '20.01');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Insufficient funds').getAttribute('role')).toBe('alert');
    expect(within(dialog).queryByText('Insufficient withdrawable funds: part of the balance is on hold')).toBeNull();
    // 100.01 coins is more than the 100.00 there are, held or not.
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'CON');
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '100.01');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Insufficient funds')).toBeTruthy();
    expect(api.sent('POST', '/api/account/withdraw')).toHaveLength(0);
  });

  it('confirms, sends once with an Idempotency-Key, and shows Entered then Processed live', async () => {
    const answer = held();
    const api = withdrawApi({}, { 'POST /api/account/withdraw': () => answer.answer });
    const { user, dialog } = await openWithdraw();
    await user.type(within(dialog).getByLabelText('Amount'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Withdrawal' });
    // Issue 35: the cash paid out, the rate, the fee and the destination by name, before anything moves.
    await within(confirm).findByTestId('quote-get');
    expect(
      within(confirm)
        .getAllByRole('definition')
        .map((each) => each.textContent),
    ).toEqual(['25.00 Coins', '$1.25 USD', '1 USD = 20 Coins', '0.00 Coins', 'Visa •••• 4242']);
    expect(api.sent('POST', '/api/account/quote')[0]?.body).toEqual({
      from_currency: 'CON',
      to_currency: 'USD',
      amount_in: 2_500,
    });
    const shown = api.quotes.last()?.quote_id;
    await user.dblClick(within(confirm).getByRole('button', { name: 'Confirm Withdrawal' }));
    expect(api.sent('POST', '/api/account/withdraw')).toHaveLength(1);
    const [call] = api.sent('POST', '/api/account/withdraw');
    expect(call?.body).toEqual({
      amount: 2_500,
      currency: 'CON',
      paymentMethodId: 11,
      payout_currency: 'USD',
      quote_id: shown,
    });
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    answer.release(withdrawn(call?.body));
    const state = await screen.findByRole('dialog', { name: 'Withdrawal' });
    expect(await within(state).findByText('Entered')).toBeTruthy();
    expect(within(state).getByTestId('payout').textContent).toBe('Visa •••• 4242 receives $1.25 USD.');
    FakeLiveSocket.push({ type: 'activity', transaction: withdrawal('completed') });
    expect(await within(state).findByText('Processed')).toBeTruthy();
    expect(within(state).getByText('The payout was sent.')).toBeTruthy();
    expect(within(state).getByRole('link', { name: 'View in Transactions' }).getAttribute('href')).toBe('/transaction');
  });

  it('asks for the PIN once one is set, and sends it', async () => {
    const api = withdrawApi({ pinSet: true });
    const { user, dialog } = await openWithdraw();
    await user.type(within(dialog).getByLabelText('Amount'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Please enter PIN to confirm this withdrawal')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('PIN'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('PIN must be 4 to 6 digits')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('PIN'));
    await user.type(within(dialog).getByLabelText('PIN'), '4821');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await screen.findByTestId('quote-get');
    await user.click(screen.getByRole('button', { name: 'Confirm Withdrawal' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/withdraw')[0]?.body).toEqual({
        amount: 1_000,
        currency: 'CON',
        paymentMethodId: 11,
        pin: '4821',
        payout_currency: 'USD',
        quote_id: api.quotes.last()?.quote_id,
      });
    });
  });

  it('a wrong PIN returns to the form with the refusal announced', async () => {
    withdrawApi(
      { pinSet: true },
      {
        'POST /api/account/withdraw': () => refused(422, [{ code: 42240, field: 'pin', message: 'PIN is incorrect' }]),
      },
    );
    const { user, dialog } = await openWithdraw();
    await user.type(within(dialog).getByLabelText('Amount'), '10');
    await user.type(within(dialog).getByLabelText('PIN'), '0000');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await screen.findByTestId('quote-get');
    await user.click(screen.getByRole('button', { name: 'Confirm Withdrawal' }));
    const form = await screen.findByRole('dialog', { name: 'Withdraw Funds' });
    expect(await within(form).findByText('PIN is incorrect')).toBeTruthy();
  });

  it('without a card or bank account, points to Payment Methods', async () => {
    withdrawApi({ methods: [] });
    const { user } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Funds' });
    expect(await within(dialog).findByText('Add a debit card or a bank account first.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Payment Methods' }).getAttribute('href')).toBe(
      '/payment-method-list',
    );
  });

  it('an expired quote (409) shows the fresh one and asks again; Confirm then names it', async () => {
    let first = true;
    const fresh = quoteFor({ from_currency: 'CON', to_currency: 'CAD', amount_in: 2_500 }, 66);
    const api = withdrawApi(
      {},
      {
        'POST /api/account/withdraw': (body) => {
          if (!first) return withdrawn(body);
          first = false;
          return staleQuote(fresh);
        },
      },
    );
    const { user, dialog } = await openWithdraw();
    await user.selectOptions(within(dialog).getByLabelText('Paid out in'), 'CAD');
    await user.type(within(dialog).getByLabelText('Amount'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Withdrawal' });
    expect((await within(confirm).findByTestId('quote-get')).textContent).toBe('$1.61 CAD');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm Withdrawal' }));
    expect(await within(confirm).findByText('The quote changed. Check the new one and confirm again.')).toBeTruthy();
    expect(within(confirm).queryByText(/expired/), 'no error for a quote that changed').toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Confirm Withdrawal' }));
    await screen.findByRole('dialog', { name: 'Withdrawal' });
    expect(
      api.sent('POST', '/api/account/withdraw').map((call) => (call.body as { quote_id: string }).quote_id),
    ).toEqual(['qt_1', 'qt_66']);
    expect((api.sent('POST', '/api/account/withdraw')[1]?.body as { payout_currency: string }).payout_currency).toBe(
      'CAD',
    );
  });

  it('a cash withdrawal needs no quote: the amount and the destination by name', async () => {
    const api = withdrawApi();
    const { user, dialog } = await openWithdraw();
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'USD');
    expect(within(dialog).queryByLabelText('Paid out in')).toBeNull();
    await user.type(within(dialog).getByLabelText('Amount'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Withdrawal' });
    expect(
      within(confirm)
        .getAllByRole('definition')
        .map((each) => each.textContent),
    ).toEqual(['$5.00 USD', 'Visa •••• 4242']);
    await user.click(within(confirm).getByRole('button', { name: 'Confirm Withdrawal' }));
    await screen.findByRole('dialog', { name: 'Withdrawal' });
    expect(api.sent('POST', '/api/account/quote')).toHaveLength(0);
    expect(api.sent('POST', '/api/account/withdraw')[0]?.body).toEqual({
      amount: 500,
      currency: 'USD',
      paymentMethodId: 11,
    });
  });

  it('says why the destinations could not be loaded', async () => {
    withdrawApi(
      {},
      { 'POST /api/account/pay-method': () => refused(503, [{ code: 50300, message: 'Service unavailable' }]) },
    );
    const { user } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Funds' });
    expect((await within(dialog).findByText('Service unavailable')).closest('[role="alert"]')).toBeTruthy();
  });
});
