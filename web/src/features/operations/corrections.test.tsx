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
    'GET /api/operations/people': (_body, url) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const { person: found } = person(0);
      return ok({ people: found.username.startsWith(q) || found.email.startsWith(q) ? [found] : [] });
    },
    'GET /api/operations/person': () => ok(person(10_00)),
    'POST /api/operations/correct-balance': () => ok({ transaction: transaction('tx-correction-1', -150) }),
    ...handlers,
  });
}

/** Types part of a name in the person field and picks them from the suggestions. */
async function pickPerson(user: ReturnType<typeof renderApp>['user'], typed: string) {
  await user.type(screen.getByLabelText('Person (username or e-mail)'), typed);
  const found = await screen.findByRole('list', { name: 'People found' });
  await user.click(within(found).getByRole('button', { name: /demo_personal/ }));
  await screen.findByText('demo_personal · personal@example.com');
}

describe('/operations/corrections: correcting a balance', () => {
  beforeEach(resetSession);

  it('picks the person by e-mail, takes units of the shown currency, previews the balance, then posts minor units', async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    expect(screen.getByLabelText('Amount in Coins')).toBeTruthy();
    await pickPerson(user, 'perso');
    expect(api.sent('GET', '/api/operations/people').at(-1)?.path).toBe('/api/operations/people');
    await user.selectOptions(screen.getByLabelText('Currency'), 'CAD');
    await user.type(screen.getByLabelText('Amount in CAD'), '-1.50');
    expect(document.querySelector('.correction-preview')?.textContent).toBe(
      'Available now: $10.00 CAD. After the correction: $8.50 CAD.',
    );
    await user.type(screen.getByLabelText('Reason'), 'Duplicate deposit credited twice');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the correction' });
    expect(within(dialog).getByText(/^The balance goes from \$10\.00 CAD to \$8\.50 CAD\.$/)).toBeTruthy();
    expect(within(dialog).getByText('Duplicate deposit credited twice')).toBeTruthy();
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
    expect(screen.getByLabelText<HTMLInputElement>('Person (username or e-mail)').value).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refuses an overdraw under the amount before anything is posted', async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await pickPerson(user, 'demo');
    await user.selectOptions(screen.getByLabelText('Currency'), 'CAD');
    await user.type(screen.getByLabelText('Amount in CAD'), '-10.01');
    expect(screen.getByText('After the correction: −$0.01 CAD.').className).toBe('money-out');
    await user.type(screen.getByLabelText('Reason'), 'Refund sent twice');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await waitFor(() => {
      expect(shownError(screen.getByLabelText('Amount in CAD'))).toBe(
        'Signed, in units: 1.50 adds, -1.50 takes away.This would take the balance below zero: $10.00 CAD available.',
      );
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/operations/correct-balance')).toHaveLength(0);
  });

  it("corrects a merchant's wallet in coin units, saying the balance is shown for users only", async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.selectOptions(screen.getByLabelText('Whose wallet'), 'merchant');
    await user.type(screen.getByLabelText('Merchant id'), '5');
    await user.type(screen.getByLabelText('Amount in Coins'), '25');
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

  it('says what is missing or wrong under its field, from the same schema as the route, and sends nothing', async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.type(screen.getByLabelText('Amount in Coins'), '1.505');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const reason = screen.getByLabelText('Reason');
    await waitFor(() => {
      expect(reason.getAttribute('aria-invalid')).toBe('true');
    });
    expect(shownError(reason)).toBe('Please enter Reason');
    expect(shownError(screen.getByLabelText('Person (username or e-mail)'))).toBe(
      'Type two letters or more, then pick the person.Please enter valid User',
    );
    // More decimals than the currency has is no amount.
    expect(shownError(screen.getByLabelText('Amount in Coins'))).toBe(
      'Signed, in units: 1.50 adds, -1.50 takes away.Invalid amount',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/operations/correct-balance')).toHaveLength(0);
  });

  it("says under the id field that a merchant's id is missing", async () => {
    const api = correctionsApi();
    const { user } = renderApp('/operations/corrections');
    await screen.findByText('No corrections waiting for approval');
    await user.selectOptions(screen.getByLabelText('Whose wallet'), 'merchant');
    await user.type(screen.getByLabelText('Amount in Coins'), '1');
    await user.type(screen.getByLabelText('Reason'), 'Goodwill credit');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const id = screen.getByLabelText('Merchant id');
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
    await pickPerson(user, 'demo');
    await user.type(screen.getByLabelText('Amount in Coins'), '1');
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
