import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeLiveSocket, fakeApi, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';

const balance = {
  currency: 'CON',
  balance: 45_050,
  available_balance: 45_050,
  withdrawable_balance: 43_500,
  balances: [],
};
const bob = { kind: 'user' as const, name: 'Bob Birch', username: 'bob' };
const entry = (id: number, type: string, debitCredit: 'D' | 'C', change: number, overrides = {}) =>
  transactionView({
    tx_id: `tx-${String(id)}`,
    entry_date: '2026-11-20T14:05:00.000Z',
    type,
    amount: Math.abs(change),
    debit_credit: debitCredit,
    wallet_change: change,
    ...overrides,
  });

function dashboardApi(transactions: () => ReturnType<typeof entry>[]) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'GET /api/account/balance': () => ok({ balance }),
    'POST /api/account/transactions': () => {
      const list = transactions();
      return ok({ transactions: list, total: list.length });
    },
    'POST /api/agreement/agreement-list': () => ok({ agreements: [] }),
  });
}

describe('the dashboard: balances a person can read, and recent activity', () => {
  beforeEach(() => {
    resetSession();
    localStorage.clear();
    // The balance read starts afresh with the query cache, which testing/setup.ts clears.
  });

  it('shows available, on hold, withdrawable and total, each saying what it means', async () => {
    dashboardApi(() => []);
    renderApp('/');
    expect((await screen.findByTestId('balance-available')).textContent).toBe('450.50 Coins');
    expect(screen.getByTestId('balance-hold').textContent).toBe('15.50 Coins');
    expect(screen.getByTestId('balance-withdrawable').textContent).toBe('435.00 Coins');
    expect(screen.getByTestId('balance-total').textContent).toBe('450.50 Coins');
    expect(screen.getByText('Part of available; withdrawable after the hold time')).toBeTruthy();
    expect(screen.getByText('Not on hold: yours to take out')).toBeTruthy();
  });

  it('lists the five newest transactions with whom and the wallet change, and reads them again on live activity', async () => {
    let list = [
      entry(5, 'transfer', 'C', 500, { counterparty: bob }),
      entry(4, 'transfer', 'D', -250, { counterparty: bob }),
      entry(3, 'sale', 'D', 0, {
        amount: 35_50,
        counterparty: { kind: 'merchant', name: 'Maple Coffee', username: null },
        funding: { amount: 35_50, currency: 'USD', label: 'Visa •••• 4242' },
      }),
      entry(2, 'purchase', 'C', 20_000, {
        funding: { amount: 10_00, currency: 'USD', label: 'Visa •••• 4242' },
      }),
    ];
    const api = dashboardApi(() => list);
    renderApp('/');
    const activity = await screen.findByRole('list', { name: 'Recent activity' });
    expect(api.sent('POST', '/api/account/transactions')[0]?.body).toEqual({ offset: 0, limit: 5 });
    expect(
      within(activity)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('strong')?.textContent),
    ).toEqual([
      'Transfer from Bob Birch (@bob)',
      'Transfer to Bob Birch (@bob)',
      'Payment to Maple Coffee',
      'Coin purchase',
    ]);
    expect(within(activity).getByText('+5.00 Coins')).toBeTruthy();
    expect(within(activity).getByText('−2.50 Coins')).toBeTruthy();
    // Paid by card: the wallet did not move, and the card is named.
    expect(within(activity).getByText('0.00 Coins')).toBeTruthy();
    expect(within(activity).getAllByText(/Visa •••• 4242/)).toHaveLength(2);
    // Coins for a dollar price: both sides on the row, the wallet's first.
    const amounts = (index: number) =>
      within(activity).getAllByRole('listitem')[index]?.querySelector('.activity-amounts')?.textContent;
    expect(amounts(2)).toBe('0.00 Coins$35.50 USD');
    expect(amounts(3)).toBe('+200.00 Coins$10.00 USD');
    // A transfer between people is one currency: one figure.
    expect(amounts(0)).toBe('+5.00 Coins');
    expect(screen.getByRole('link', { name: 'View all transactions' }).getAttribute('href')).toBe('/transaction');

    list = [entry(6, 'transfer', 'C', 100), ...list];
    FakeLiveSocket.push({ type: 'balance', balance });
    FakeLiveSocket.push({
      type: 'activity',
      transaction: transactionView({
        tx_id: 'tx-6',
        entry_date: '2026-11-20T14:06:00.000Z',
        debit_credit: 'C',
        amount: 100,
        hold_amount: 100,
      }),
    });
    await waitFor(() => {
      expect(within(activity).getAllByRole('listitem')).toHaveLength(5);
    });
    expect(within(activity).getByText('+1.00 Coins')).toBeTruthy();
  });

  it('says so when there is no activity yet', async () => {
    dashboardApi(() => []);
    renderApp('/');
    expect(await screen.findByText('No activity yet. Add funds to get started.')).toBeTruthy();
  });
});
