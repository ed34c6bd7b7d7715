import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { acceptFirstSession, session } from '../features/session/session-store.ts';
import { fakeApi, ok, renderApp, resetSession, sessionUser } from '../testing/app.tsx';

/**
 * Issue 35 item 8: a fresh load whose session comes from the local cache
 * used to render its screen at once, and the screen's first POST left
 * without the CSRF token that only GET /api/session brings: a 403 about one
 * load in six. No call may leave before the session has answered.
 */
describe('first load', () => {
  beforeEach(resetSession);

  it.each(['/payment-method-list', '/add-fund', '/transaction', '/'])(
    '%s sends no data call before the session and its CSRF token are known',
    async (path) => {
      // What a reload with a cached session starts from: a user, but no answer yet.
      session.user = sessionUser();
      const answer = { answeredAt: -1 };
      const api = fakeApi({
        'GET /api/session': async () => {
          // Long enough for a screen's chunk to load and its first calls to go, were they let.
          await new Promise((resolve) => setTimeout(resolve, 300));
          answer.answeredAt = api.calls.length;
          return ok({ user: sessionUser(), csrfToken: 'csrf-fresh' });
        },
        'POST /api/account/pay-method': () => ok({ methods: [], total: 0 }),
        'GET /api/account/balance': () =>
          ok({
            balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] },
          }),
      });
      renderApp(path);

      await waitFor(() => {
        expect(answer.answeredAt).toBeGreaterThanOrEqual(0);
        expect(api.calls.filter((call) => call.path !== '/api/session').length).toBeGreaterThan(0);
      });
      const beforeSession = api.calls
        .slice(0, answer.answeredAt)
        .filter((call) => call.path !== '/api/session')
        .map((call) => `${call.method} ${call.path}`);
      expect(beforeSession).toEqual([]);
      for (const call of api.calls.filter((each) => each.method === 'POST'))
        expect(call.headers['x-csrf-token'], `${call.method} ${call.path}`).toBe('csrf-fresh');
    },
  );
});

/**
 * The server puts the session and the balance in the page it serves
 * (lib/first-answers.ts): the dashboard renders from them, without the two
 * round trips in a row it used to wait for, and its calls carry that
 * session's CSRF token.
 */
describe('a page that came with its first answers', () => {
  beforeEach(resetSession);

  it('shows the balance at / asking for neither the session nor the balance', async () => {
    const api = fakeApi({
      'POST /api/account/transactions': () => ok({ transactions: [], total: 0 }),
      'POST /api/agreement/agreement-list': () => ok({ agreements: [] }),
    });
    const balance = {
      currency: 'CON',
      balance: 125_050,
      available_balance: 125_050,
      withdrawable_balance: 125_050,
      balances: [],
    };
    void acceptFirstSession(
      { response: 'success', user: sessionUser(), csrfToken: 'csrf-in-page' },
      import('../features/wallet/index.ts').then((wallet) => () => {
        wallet.primeBalance({ response: 'success', balance });
      }),
    );
    renderApp('/');

    expect((await screen.findByTestId('balance-available')).textContent).toContain('1,250.50');
    await waitFor(() => {
      expect(api.calls.length).toBeGreaterThan(0);
    });
    expect(api.sent('GET', '/api/session')).toEqual([]);
    expect(api.sent('GET', '/api/account/balance')).toEqual([]);
    for (const call of api.calls.filter((each) => each.method === 'POST'))
      expect(call.headers['x-csrf-token'], call.path).toBe('csrf-in-page');
  });

  it('asks for the session when what the page came with does not read as one', async () => {
    const api = fakeApi();
    expect(acceptFirstSession({ user: 'someone' })).toBeNull();
    renderApp('/login');
    await waitFor(() => {
      expect(api.sent('GET', '/api/session')).toHaveLength(1);
    });
  });
});
