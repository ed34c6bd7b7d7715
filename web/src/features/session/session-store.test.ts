import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, resetSession, sessionUser } from '../../testing/app.tsx';
import { loadSession, logOut, session } from './session-store.ts';

describe('session store (spec §4 Session)', () => {
  beforeEach(resetSession);

  it('fresh data replaces the cache; logout clears local storage and resets the user', async () => {
    const user = sessionUser();
    let signedIn = true;
    fakeApi({
      'GET /api/session': () => ok({ user: signedIn ? user : null, csrfToken: 'csrf' }),
      'POST /api/logout': () => {
        signedIn = false;
        return ok({});
      },
    });
    localStorage.setItem(
      'peeks.session',
      JSON.stringify({
        value: { user: sessionUser({ username: 'stale_name' }), merchant: null },
        expiresAt: Date.now() + 60_000,
      }),
    );
    await loadSession();
    expect(session.user?.username).toBe('anne_tremblay');
    expect(JSON.parse(localStorage.getItem('peeks.session') ?? '{}')).toMatchObject({
      value: { user: { username: 'anne_tremblay' } },
    });
    await logOut();
    expect(session.user).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('a failed lookup leaves the user logged out', async () => {
    fakeApi({
      'GET /api/session': () => ({
        status: 500,
        body: {
          response: 'error',
          message: 'Something went wrong',
          errors: [{ code: 50000, message: 'Something went wrong' }],
        },
      }),
    });
    await loadSession();
    expect(session.status).toBe('known');
    expect(session.user).toBeNull();
  });
});
