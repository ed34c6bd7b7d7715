import { readQrPayload, type Currency } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeLiveSocket, fakeApi, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';

const balance = { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] };

describe('/generate-qr-code (spec §2 Generate QR code)', () => {
  beforeEach(resetSession);

  it('shows the Scan To Pay QR of {amt, gid, uid, cur, comment} after a second, the payment live, and Cancel / Clear Transaction resets', async () => {
    fakeApi({
      'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
      'GET /api/account/balance': () => ok({ balance }),
    });
    const { user } = renderApp('/generate-qr-code');
    expect(await screen.findByRole('heading', { name: 'Generate QR code' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create A Transaction' }));
    expect(await screen.findAllByText('Please enter amount')).not.toHaveLength(0);
    await user.type(screen.getByLabelText('Amount'), '1a2.5.0');
    expect(screen.getByLabelText<HTMLInputElement>('Amount').value).toBe('12.50');
    await user.type(screen.getByLabelText('Order / Sales / ID'), 'Table 7');
    await user.click(screen.getByRole('button', { name: 'Create A Transaction' }));

    const modal = await screen.findByRole('dialog', { name: 'Scan To Pay' }, { timeout: 3000 });
    await waitFor(() => {
      expect(within(modal).getByRole('img', { name: 'QR code of the payment' }).getAttribute('src')).toMatch(/^data:/);
    });
    const image = within(modal).getByRole('img', { name: 'QR code of the payment' });
    expect(image.getAttribute('width')).toBe('225');
    expect(readQrPayload(image.getAttribute('data-qr-text') ?? '')).toEqual({
      amt: '12.5',
      gid: sessionUser().guser_id,
      uid: sessionUser().user_id,
      cur: 'USD',
      comment: 'Table 7',
    });
    expect(within(modal).getByText('Waiting for the payment…')).toBeTruthy();
    FakeLiveSocket.push({
      type: 'activity',
      transaction: { ...saleOf(1250, 'USD', 'Table 7') },
    });
    expect(await within(modal).findByText('Payment received: $12.50 USD')).toBeTruthy();

    await user.click(within(modal).getByRole('button', { name: 'Cancel / Clear Transaction' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(screen.getByLabelText<HTMLInputElement>('Amount').value).toBe('');
  });
});

function saleOf(amount: number, currency: Currency, reference: string) {
  return transactionView({
    tx_id: 'tx-sale',
    entry_date: '2026-11-25 18:00:00',
    merchant_id: 3,
    type: 'sale',
    tx_class: 'PURCHASE',
    debit_credit: 'C',
    amount,
    currency,
    reference,
  });
}
