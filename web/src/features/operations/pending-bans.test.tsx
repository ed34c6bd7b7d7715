import type { BanRequest, PersonView } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const operator = sessionUser({ user_id: 7, username: 'fin_anne', role: 'finance' });
const ban = (overrides: Partial<BanRequest> = {}): BanRequest => ({
  ban_id: 'ban_1',
  state: 'pending',
  user_id: 12,
  username: 'fin_carl',
  reason: 'Shared their console',
  requested_by: 'user-9',
  requested_by_username: 'fin_bob',
  requested_at: '2026-11-25T10:00:00.000Z',
  decided_by: null,
  decided_by_username: null,
  decided_at: null,
  decision_reason: null,
  ...overrides,
});

function consoleApi(pending: () => BanRequest[], handlers: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }),
    'GET /api/operations/bans': () => ok({ bans: pending(), total: pending().length }),
    'GET /api/operations/audit': () => ok({ actions: [], next_before: null }),
    ...handlers,
  });
}

describe('/operations/people: bans of operators waiting for approval (four eyes)', () => {
  beforeEach(resetSession);

  it("lists the bans waiting for a second operator; the operator's own has no buttons", async () => {
    consoleApi(() => [ban(), ban({ ban_id: 'ban_2', username: 'fin_dora', requested_by: 'user-7' })]);
    renderApp('/operations/people');
    const table = await screen.findByRole('table', { name: 'Bans of operators waiting for approval' });
    const [, theirs, mine] = within(table).getAllByRole('row');
    if (!theirs || !mine) throw new Error('two rows expected');
    expect(within(theirs).getByText('fin_carl')).toBeTruthy();
    expect(within(theirs).getByText('fin_bob')).toBeTruthy();
    expect(within(theirs).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(theirs).getByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(within(mine).getByText('Waiting for another operator')).toBeTruthy();
    expect(within(mine).queryByRole('button')).toBeNull();
  });

  it('approves after a confirmation, with an Idempotency-Key, and reloads the list', async () => {
    let pending = [ban()];
    const api = consoleApi(() => pending, {
      'POST /api/operations/approve-ban': () => {
        pending = [];
        return ok({ ban: ban({ state: 'approved', decided_by: 'user-7' }) });
      },
    });
    const { user } = renderApp('/operations/people');
    const table = await screen.findByRole('table', { name: 'Bans of operators waiting for approval' });
    await user.click(within(table).getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve the ban' });
    expect(
      within(dialog).getByText(
        'Ban fin_carl (Shared their console) and end every session of theirs now, as fin_bob asked?',
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('No bans waiting for approval')).toBeTruthy();
    expect(screen.getByText('fin_carl is banned')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/approve-ban');
    expect(sent?.body).toEqual({ ban_id: 'ban_1' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects with a reason', async () => {
    const api = consoleApi(() => [ban()], {
      'POST /api/operations/reject-ban': () => ok({ ban: ban({ state: 'rejected', decided_by: 'user-7' }) }),
    });
    const { user } = renderApp('/operations/people');
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject the ban' });
    await user.type(within(dialog).getByLabelText('Why it is rejected'), 'Not the operator in the report');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/operations/reject-ban')[0]?.body).toEqual({
        ban_id: 'ban_1',
        reason: 'Not the operator in the report',
      });
    });
  });

  it('says a ban of an operator went for approval, and leaves them shown as they are', async () => {
    const carl: PersonView = {
      response: 'success',
      person: {
        user_id: 12,
        username: 'fin_carl',
        email: 'carl@example.com',
        user_type: 'personal',
        role: 'finance',
        account_status: 'active',
        is_banned: false,
        created_at: '2026-11-01T10:00:00.000Z',
      },
      owner_id: 'user-12',
      wallets: [],
      holds: [],
      transactions: [],
      deposits: [],
      sessions: [
        {
          session_id: 'aabbccddeeff001122334455',
          created_at: '2026-11-25T10:00:00.000Z',
          last_seen_at: '2026-11-25T11:00:00.000Z',
          expires_at: '2026-11-26T10:00:00.000Z',
        },
      ],
    };
    const api = consoleApi(() => [], {
      'GET /api/operations/person': () => ok(carl),
      'POST /api/operations/ban-user': () => ({
        status: 202,
        body: { response: 'success', ban: ban({ requested_by: 'user-7', requested_by_username: 'fin_anne' }) },
      }),
    });
    const { user } = renderApp('/operations/people?user=12');
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = screen.getByRole('dialog', { name: 'Ban fin_carl' });
    expect(within(dialog).getByText(/the ban waits for another finance operator to approve it/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Shared their console');
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }));
    expect(
      await screen.findByText('The ban of fin_carl was sent to another finance operator for approval'),
    ).toBeTruthy();
    expect(api.sent('POST', '/api/operations/ban-user')).toHaveLength(1);
    expect(screen.queryByText('Banned')).toBeNull();
    expect(screen.getByRole('button', { name: 'Ban' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Revoke / })).toBeTruthy();
  });
});
