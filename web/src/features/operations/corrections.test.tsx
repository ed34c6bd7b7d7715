import type { PersonView } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi, transaction } from './testing.ts';

const person = (cad: number): PersonView => ({
  response: 'success',
  person: {
    user_id: 42,
    username: 'demo_personal',
    email: 'personal@example.com',
    user_type: 'personal',
    role: 'user',
    account_status: 'active',
    is_banned: false,
    created_at: '2026-11-01T10:00:00.000Z',
  },
  owner_id: 'user-42',
  wallets: [
    {
      wallet_id: 'wallet:user-42:CAD',
      currency: 'CAD',
      total: cad,
      available: cad,
      withdrawable: cad,
      reserved: 0,
      status: 'open',
    },
  ],
  holds: [],
  transactions: [],
  deposits: [],
  sessions: [],
});

function correctionsApi(handlers: Parameters<typeof consoleApi>[0] = {}) {
  return consoleApi({
    'GET /api/operations/corrections': () => ok({ corrections: [], total: 0 }),
    'GET /api/operations/person': () => ok(person(10_00)),
    'POST /api/operations/correct-balance': () => ok({ transaction: transaction('tx-correction-1', -150) }),
    ...handlers,
  });
}

describe('/operations/corrections: correcting a balance', () => {
  beforeEach(resetSession);

  it("confirms with the user's resulting balance, then posts the signed amount with an Idempotency-Key", async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.type(screen.getByLabelText('User or merchant id'), '42');
    await user.selectOptions(screen.getByLabelText('Currency'), 'CAD');
    await user.type(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'), '-150');
    await user.type(screen.getByLabelText('Reason'), 'Duplicate deposit credited twice');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the correction' });
    expect(within(dialog).getByText(/^The balance goes from \$10\.00 CAD to \$8\.50 CAD\.$/)).toBeTruthy();
    expect(within(dialog).getByText('Duplicate deposit credited twice')).toBeTruthy();
    expect(api.calls.find((call) => call.path === '/api/operations/person')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Post correction' }));
    expect(await screen.findByText('Correction posted')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/correct-balance');
    expect(sent?.body).toEqual({
      user_id: 42,
      currency: 'CAD',
      amount: -150,
      reason: 'Duplicate deposit credited twice',
    });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // The form starts over for the next correction.
    expect(screen.getByLabelText<HTMLInputElement>('User or merchant id').value).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("corrects a merchant's wallet, saying the balance is shown for users only", async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.selectOptions(screen.getByLabelText('Whose wallet'), 'merchant');
    await user.type(screen.getByLabelText('User or merchant id'), '5');
    await user.type(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'), '2500');
    await user.type(screen.getByLabelText('Reason'), 'Settlement fee refunded');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the correction' });
    expect(within(dialog).getByText('The current balance is shown for users only.')).toBeTruthy();
    expect(api.sent('GET', '/api/operations/person')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Post correction' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/operations/correct-balance')[0]?.body).toEqual({
        merchant_id: 5,
        currency: 'CON',
        amount: 2500,
        reason: 'Settlement fee refunded',
      });
    });
  });

  it('says what is missing under its field, from the same schema as the route, and sends nothing', async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.type(screen.getByLabelText('User or merchant id'), '42');
    await user.type(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'), '0');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const reason = screen.getByLabelText('Reason');
    await waitFor(() => {
      expect(reason.getAttribute('aria-invalid')).toBe('true');
    });
    expect(shownError(reason)).toBe('Please enter Reason');
    expect(shownError(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'))).toBe('Invalid amount');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/operations/correct-balance')).toHaveLength(0);
  });

  it("says under the id field that a merchant's id is missing", async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.selectOptions(screen.getByLabelText('Whose wallet'), 'merchant');
    await user.type(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'), '100');
    await user.type(screen.getByLabelText('Reason'), 'Goodwill credit');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const id = screen.getByLabelText('User or merchant id');
    await waitFor(() => {
      expect(id.getAttribute('aria-invalid')).toBe('true');
    });
    expect(shownError(id)).toBe('Please enter valid Merchant');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/operations/correct-balance')).toHaveLength(0);
  });

  it("keeps the confirmation open with the API's words when the correction is refused", async () => {
    correctionsApi({
      'POST /api/operations/correct-balance': () =>
        refused(422, [{ code: 42286, field: 'user_id', message: 'not_used_the_catalogue_speaks' }]),
    });
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.type(screen.getByLabelText('User or merchant id'), '42');
    await user.type(screen.getByLabelText('Signed amount (minor units: 150 is 1.50)'), '100');
    await user.type(screen.getByLabelText('Reason'), 'Goodwill credit');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the correction' });
    await user.click(within(dialog).getByRole('button', { name: 'Post correction' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This correction was already approved or rejected',
    );
  });
});

/** The error a field shows: the text its aria-describedby names. */
function shownError(control: HTMLElement) {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join('');
}
