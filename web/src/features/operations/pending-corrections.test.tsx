import type { CorrectionRequest } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const operator = sessionUser({ user_id: 7, username: 'fin_anne', role: 'finance' });
const correction = (overrides: Partial<CorrectionRequest> = {}): CorrectionRequest => ({
  correction_id: 'corr_1',
  state: 'pending',
  owner_id: 'user-42',
  user_id: 42,
  merchant_id: null,
  currency: 'CON',
  amount: 250_00,
  reason: 'Refund of a double charge',
  requested_by: 'user-9',
  requested_by_username: 'fin_bob',
  requested_at: '2026-11-25T10:00:00.000Z',
  decided_by: null,
  decided_by_username: null,
  decided_at: null,
  decision_reason: null,
  tx_id: null,
  ...overrides,
});

function consoleApi(pending: CorrectionRequest[], handlers: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }),
    'GET /api/operations/corrections': () => ok({ corrections: pending, total: pending.length }),
    ...handlers,
  });
}

describe('/operations/corrections: pending corrections (four eyes)', () => {
  beforeEach(resetSession);

  it("lists the corrections waiting for approval; the operator's own has no buttons", async () => {
    consoleApi([correction(), correction({ correction_id: 'corr_2', requested_by: 'user-7', amount: -300_00 })]);
    renderApp('/operations/corrections');
    const table = await screen.findByRole('table', { name: 'Corrections waiting for approval' });
    const [, theirs, mine] = within(table).getAllByRole('row');
    if (!theirs || !mine) throw new Error('two rows expected');
    expect(within(theirs).getByText('fin_bob')).toBeTruthy();
    expect(within(theirs).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(theirs).getByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(within(mine).getByText('Waiting for another operator')).toBeTruthy();
    expect(within(mine).queryByRole('button')).toBeNull();
  });

  it('approves after a confirmation, with an Idempotency-Key, and reloads the list', async () => {
    let pending = [correction()];
    const api = consoleApi([], {
      'GET /api/operations/corrections': () => ok({ corrections: pending, total: pending.length }),
      'POST /api/operations/approve-correction': () => {
        pending = [];
        return ok({ correction: correction({ state: 'approved', decided_by: 'user-7' }), transaction: null });
      },
    });
    const { user } = renderApp('/operations/corrections');
    const table = await screen.findByRole('table', { name: 'Corrections waiting for approval' });
    await user.click(within(table).getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve the correction' });
    expect(
      within(dialog).getByText(/Post \+250\.00 .* to user-42 \(Refund of a double charge\), as fin_bob asked\?/),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('No corrections waiting for approval')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/approve-correction');
    expect(sent?.body).toEqual({ correction_id: 'corr_1' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the dialog open with the server's words when the approval is refused", async () => {
    consoleApi([correction()], {
      'POST /api/operations/approve-correction': () =>
        refused(422, [
          { code: 42286, field: 'correction_id', message: 'This correction was already approved or rejected' },
        ]),
    });
    const { user } = renderApp('/operations/corrections');
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve the correction' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('This correction was already approved or rejected')).toBeTruthy();
  });

  it('rejects with a reason', async () => {
    const api = consoleApi([correction()], {
      'POST /api/operations/reject-correction': () =>
        ok({ correction: correction({ state: 'rejected', decided_by: 'user-7' }), transaction: null }),
    });
    const { user } = renderApp('/operations/corrections');
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject the correction' });
    await user.type(within(dialog).getByLabelText('Why it is rejected'), 'No double charge found');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/operations/reject-correction')[0]?.body).toEqual({
        correction_id: 'corr_1',
        reason: 'No double charge found',
      });
    });
  });

  it('says a correction over the limit went for approval, and lists it', async () => {
    let pending: CorrectionRequest[] = [];
    consoleApi([], {
      'GET /api/operations/corrections': () => ok({ corrections: pending, total: pending.length }),
      'POST /api/operations/correct-balance': () => {
        pending = [correction({ requested_by: 'user-7', requested_by_username: 'fin_anne' })];
        return { status: 202, body: { response: 'success', correction: pending[0] } };
      },
      'GET /api/operations/people': () =>
        ok({
          people: [
            {
              user_id: 42,
              username: 'demo_personal',
              email: 'personal@example.com',
              user_type: 'personal',
              role: 'user',
              account_status: 'active',
              is_banned: false,
              created_at: '2026-11-01T10:00:00.000Z',
            },
          ],
        }),
      'GET /api/operations/person': () => refused(404, [{ code: 2501, message: "User doesn't exist" }]),
    });
    const { user } = renderApp('/operations/corrections');
    expect(await screen.findByText('No corrections waiting for approval')).toBeTruthy();
    await user.type(screen.getByLabelText('Person (username or e-mail)'), 'demo');
    await user.click(await screen.findByRole('button', { name: /demo_personal/ }));
    await user.type(screen.getByLabelText('Amount in Coins'), '250');
    await user.type(screen.getByLabelText('Reason'), 'Refund of a double charge');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm the correction' });
    await user.click(within(dialog).getByRole('button', { name: 'Post correction' }));
    expect(await screen.findByText('Correction sent to another finance operator for approval')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Corrections waiting for approval' });
    expect(within(table).getByText('Waiting for another operator')).toBeTruthy();
  });
});
