import type { MerchantDashboard, MerchantTransaction } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';
import { merchantInfo } from '../../testing/merchants.ts';
import { transactionView } from '../../testing/transactions.ts';
import { formatDate } from '../../lib/dates.ts';

const merchantUser = sessionUser({ merchant_id: 3, merchants: { '3': 'Demo Coffee', '4': 'Book Nook' } });

/** Either of the member's merchants, as the lookup answers for `id`. */
const merchantOf = (id: number, perms: string[]) =>
  merchantInfo({ merchant_id: id, name: id === 3 ? 'Demo Coffee' : 'Book Nook', perms });

function sale(overrides: Partial<MerchantTransaction> = {}): MerchantTransaction {
  return {
    ...transactionView({
      tx_id: 'tx_sale_1',
      entry_date: '2026-11-25T10:00:00.000Z',
      user_id: 9,
      merchant_id: 3,
      type: 'sale',
      debit_credit: 'C',
      amount: 10_00,
      currency: 'USD',
      wallet_change: 10_00,
      counterparty: { kind: 'user', name: 'Ann Oak', username: 'ann' },
    }),
    reason: null,
    returned_amount: 0,
    ...overrides,
  };
}

const dashboard = (overrides: Partial<MerchantDashboard> = {}) =>
  ok({
    today: [{ currency: 'USD', sales: 10_00, returns: 5_00, net: 5_00 }],
    month: [{ currency: 'USD', sales: 10_00, returns: 5_00, net: 5_00 }],
    daily: [
      { date: '2026-11-24', currency: 'USD', sales: 0 },
      { date: '2026-11-25', currency: 'USD', sales: 10_00 },
    ],
    next_settlement: { at: '2026-11-26T00:05:00.000Z', amounts: [{ currency: 'USD', amount: 5_00 }] },
    settlements: [],
    recent_payments: [sale()],
    ...overrides,
  });

function merchantApi(perms: string[], handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: merchantUser, csrfToken: 'csrf-signed-in' }),
    'GET /api/user/merchant-lookup': (_body, url) =>
      ok({ merchantInfo: merchantOf(Number(url.searchParams.get('id')), perms) }),
    'GET /api/account/balance': () =>
      ok({ balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] } }),
    'GET /api/merchant/dashboard': () => dashboard(),
    ...handlers,
  });
}

beforeEach(resetSession);

describe('the merchant space', () => {
  it("opens the sidebar's merchant entries with VIEW_SALES and shows the day's figures and recent payments", async () => {
    merchantApi(['VIEW_SALES']);
    renderApp('/merchant/dashboard');
    expect(await screen.findByRole('heading', { name: 'Merchant Dashboard', level: 1 })).toBeTruthy();
    const today = await screen.findByRole('region', { name: 'Today' });
    expect(within(today).getByText('$10.00 USD')).toBeTruthy();
    expect(within(today).getAllByText('$5.00 USD')).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Recent payments' }).textContent).toContain('Sale');
    const merchantNav = screen.getByRole('navigation', { name: 'Merchant' });
    expect(within(merchantNav).getByRole('link', { name: 'Transfers' }).getAttribute('href')).toBe(
      '/merchant/transfers',
    );
  });

  it('keeps the entries as placeholders and the screen closed without the permission', async () => {
    merchantApi(['ACCEPT_PAYMENTS']);
    renderApp('/merchant/transfers');
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain(
      'Your role at this merchant does not include this screen.',
    );
    const merchantNav = screen.getByRole('navigation', { name: 'Merchant' });
    expect(within(merchantNav).queryByRole('link')).toBeNull();
  });

  it('returns part of a sale from Transfers with an amount and a reason, once per attempt', async () => {
    let returned = false;
    const api = merchantApi(['VIEW_SALES', 'RETURN_SALES'], {
      'GET /api/merchant/transfers': () =>
        ok({
          transactions: [
            returned ? sale({ partially_refunded: true, refunded_amount: 4_00, returned_amount: 4_00 }) : sale(),
          ],
          total: 1,
        }),
      'POST /api/merchant/return-sale': (body) => {
        const { amount } = body as { amount: number };
        if (amount > 10_00)
          return refused(422, [
            { code: 42260, field: 'amount', message: 'The amount is more than what is left of the sale to return' },
          ]);
        returned = true;
        return ok({ transaction: sale({ tx_id: 'tx_return_1', type: 'return', debit_credit: 'D', amount }) });
      },
    });
    const { user } = renderApp('/merchant/transfers');
    await user.click(await screen.findByRole('button', { name: 'Return' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return a sale' });
    expect(within(dialog).getByText('$10.00 USD of $10.00 USD is left to return.')).toBeTruthy();
    const amount = within(dialog).getByLabelText('Amount (USD)');
    expect((amount as HTMLInputElement).value).toBe('10.00');
    await user.clear(amount);
    await user.type(amount, '12');
    await user.type(within(dialog).getByLabelText('Reason'), 'Cold coffee');
    await user.click(within(dialog).getByRole('button', { name: 'Return' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm return of $12.00 USD' }));
    expect(
      await within(dialog).findAllByText('The amount is more than what is left of the sale to return'),
    ).not.toHaveLength(0);

    // A changed amount is confirmed again before any money moves.
    await user.clear(amount);
    await user.type(amount, '4');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm return of $12.00 USD' }));
    expect(api.sent('POST', '/api/merchant/return-sale')).toHaveLength(1);
    expect(
      within(dialog).getByText(
        'Return $4.00 USD of this $10.00 USD sale? The sale stays partly refunded. Nothing moves until you confirm.',
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm return of $4.00 USD' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    const sent = api.sent('POST', '/api/merchant/return-sale');
    expect(sent.at(-1)?.body).toEqual({ tx_id: 'tx_sale_1', amount: 4_00, reason: 'Cold coffee' });
    expect(sent.at(-1)?.headers['idempotency-key']).toBeTruthy();
    expect(sent[0]?.headers['idempotency-key']).not.toBe(sent.at(-1)?.headers['idempotency-key']);
    expect(await screen.findByText('$4.00 USD refunded')).toBeTruthy();
    expect(screen.getByText('Ann Oak')).toBeTruthy();
    expect(screen.queryByText('Refunded')).toBeNull();
  });

  it('moves no money on the first press of Return: it asks to confirm the amount', async () => {
    const api = merchantApi(['VIEW_SALES', 'RETURN_SALES'], {
      'GET /api/merchant/transfers': () => ok({ transactions: [sale()], total: 1 }),
    });
    const { user } = renderApp('/merchant/transfers');
    await user.click(await screen.findByRole('button', { name: 'Return' }));
    const dialog = await screen.findByRole('dialog', { name: 'Return a sale' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Cold coffee');
    await user.click(within(dialog).getByRole('button', { name: 'Return' }));
    expect(
      await within(dialog).findByText(
        'Return $10.00 USD, all that is left of this $10.00 USD sale? Nothing moves until you confirm.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Confirm return of $10.00 USD' })).toBeTruthy();
    expect(api.sent('POST', '/api/merchant/return-sale')).toHaveLength(0);
  });

  it('lists settlements with what each paid out, and marks the batch whose payments are open', async () => {
    const batch = {
      tx_id: 'tx_settle_1',
      batch_id: 'batch_1',
      entry_date: '2026-11-25T00:05:00.000Z',
      currency: 'USD',
      amount: 6_00,
      fee: 0,
      payments: 2,
      sales: 10_00,
      returns: 4_00,
    };
    merchantApi(['VIEW_SALES'], {
      'GET /api/merchant/settlements': () => ok({ settlements: [batch], total: 1 }),
      'GET /api/merchant/settlement': () => ok({ settlement: batch, payments: [sale()] }),
    });
    const { user } = renderApp('/merchant/settlements');
    const show = await screen.findByRole('button', { name: 'Show 2 payments' });
    const [heading, row] = within(show.closest('table')!).getAllByRole('row');
    expect(
      within(heading!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Paid out', 'Sales', 'Returns', 'Payments']);
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([formatDate(batch.entry_date), '$6.00 USD', '$10.00 USD', '$4.00 USD', 'Show 2 payments']);
    expect(row!.getAttribute('aria-current')).toBeNull();
    await user.click(show);
    expect(await screen.findByRole('table', { name: 'Payments' })).toBeTruthy();
    expect(row!.getAttribute('aria-current')).toBe('true');
  });

  it('shows a report over the chosen period with its CSV link', async () => {
    merchantApi(['VIEW_SALES'], {
      'GET /api/merchant/report': (_body, url) =>
        ok({
          from: url.searchParams.get('from'),
          to: url.searchParams.get('to'),
          totals: [{ currency: 'USD', sales: 10_00, returns: 4_00, net: 6_00, settled: 0 }],
          lines: [
            {
              tx_id: 'tx_sale_1',
              entry_date: '2026-11-25T10:00:00.000Z',
              type: 'sale',
              currency: 'USD',
              amount: 10_00,
              fee: 0,
              state: 'completed',
              parent_tx_id: null,
              reason: null,
              batch_id: null,
              counterparty: { kind: 'user', name: 'Ann Oak', username: 'ann' },
            },
          ],
        }),
    });
    renderApp('/merchant/reports');
    const totals = await screen.findByRole('table', { name: 'Totals' });
    expect(within(totals).getByText('$6.00 USD')).toBeTruthy();
    // The buyer by name, not an account number.
    expect(await screen.findByText('Ann Oak')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toMatch(
      /^\/api\/merchant\/report\.csv\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/,
    );
  });
});
