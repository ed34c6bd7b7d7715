import type { PersonView } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const operator = sessionUser({ user_id: 1, username: 'demo_finance', role: 'finance' });

const view = (overrides: Partial<PersonView['person']> = {}, sessions = 2): PersonView => ({
  response: 'success',
  person: {
    user_id: 9,
    username: 'demo_personal',
    email: 'personal@example.com',
    user_type: 'personal',
    role: 'user',
    account_status: 'active',
    is_banned: false,
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  },
  owner_id: 'user-9',
  wallets: [],
  holds: [],
  transactions: [],
  deposits: [],
  sessions: Array.from({ length: sessions }, (_, index) => ({
    session_id: `${String(index).repeat(2)}aabbccddeeff001122334455`.slice(0, 24),
    created_at: '2026-11-25T10:00:00.000Z',
    last_seen_at: '2026-11-25T11:00:00.000Z',
    expires_at: '2026-11-26T10:00:00.000Z',
  })),
});

describe('/operations/people: a person support can act on', () => {
  beforeEach(resetSession);

  it('bans with a reason, ending the sessions, then offers Unban', async () => {
    const api = fakeApi({
      'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }),
      'GET /api/operations/person': () => ok(view()),
      'POST /api/operations/ban-user': () => ok(view({ is_banned: true }, 0)),
    });
    const { user } = renderApp('/operations/people?user=9');
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = screen.getByRole('dialog', { name: 'Ban demo_personal' });
    expect(within(dialog).getByText(/every session of theirs ends now/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Fraud report');
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/operations/ban-user')).toHaveLength(1);
    });
    expect(api.sent('POST', '/api/operations/ban-user')[0]?.body).toEqual({ user_id: 9, reason: 'Fraud report' });
    expect(await screen.findByText('demo_personal is banned')).toBeTruthy();
    expect(screen.getByText('Banned')).toBeTruthy();
    expect(screen.getByText('No live sessions')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unban' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("names the transactions' columns, types and states from the dictionary, in Japanese too", async () => {
    fakeApi({
      'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }),
      'GET /api/operations/person': () =>
        ok({
          ...view(),
          transactions: [
            {
              tx_id: 'tx-1',
              entry_date: '2026-11-25T10:00:00.000Z',
              type: 'deposit',
              state: 'completed',
              amount: 50_00,
              currency: 'CON',
              debit_credit: 'C',
              payment_method_type: null,
              reference: null,
              reason: null,
            },
          ],
        }),
    });
    await i18n.changeLanguage('ja');
    try {
      renderApp('/operations/people?user=9');
      const table = await screen.findByRole('table', { name: '最近の取引' });
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((header) => header.textContent),
      ).toEqual(['日時', '種類', '状態', '金額']);
      expect(within(table).getByText('入金')).toBeTruthy();
      expect(within(table).getByText('完了')).toBeTruthy();
      expect(within(table).queryByText('deposit')).toBeNull();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("revokes one session, and shows the API's words when it is already gone", async () => {
    let gone = false;
    const api = fakeApi({
      'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }),
      'GET /api/operations/person': () => ok(view()),
      'POST /api/operations/revoke-session': () =>
        gone ? refused(404, [{ code: 40470, message: 'Session not found' }]) : ok(view({}, 1)),
    });
    const { user } = renderApp('/operations/people?user=9');
    const revokes = await screen.findAllByRole('button', { name: /^Revoke / });
    expect(revokes).toHaveLength(2);
    await user.click(revokes[0] as HTMLElement);
    let dialog = screen.getByRole('dialog', { name: /^Revoke session / });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Session revoked')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Revoke / })).toHaveLength(1);
    expect(api.sent('POST', '/api/operations/revoke-session')[0]?.body).toMatchObject({
      user_id: 9,
      reason: 'Lost phone',
    });

    gone = true;
    await user.click(screen.getByRole('button', { name: /^Revoke / }));
    dialog = screen.getByRole('dialog', { name: /^Revoke session / });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Again');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', 'Session not found');
  });
});
