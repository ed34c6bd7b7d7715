import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../features/session/session-store.ts';
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
        'POST /api/account/pay-method': () => ok({ methods: [] }),
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
