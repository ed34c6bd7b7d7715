import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi, pendingWithdrawal, transaction } from './testing.ts';

function withdrawalsApi(handlers: Parameters<typeof consoleApi>[0] = {}) {
  let pending = [pendingWithdrawal()];
  const settle = (answer: ReturnType<typeof ok>) => {
    pending = [];
    return answer;
  };
  return consoleApi({
    'GET /api/operations/withdrawals': () => ok({ withdrawals: pending, total: pending.length }),
    'POST /api/operations/process-withdrawal': () => settle(ok({ transaction: transaction('tx-withdraw-1') })),
    'POST /api/operations/fail-withdrawal': () => settle(ok({ transaction: transaction('tx-withdraw-1') })),
    ...handlers,
  });
}

const openStep = async (user: ReturnType<typeof renderApp>['user'], button: 'Process' | 'Fail') => {
  const table = await screen.findByRole('table', { name: 'Withdrawals' });
  const [, row] = within(table).getAllByRole('row');
  if (!row) throw new Error('a withdrawal row expected');
  expect(within(row).getByText('user-9')).toBeTruthy();
  expect(within(row).getByText(/120\.00/)).toBeTruthy();
  expect(within(row).getByText('Bank account •••• 4321')).toBeTruthy();
  await user.click(within(row).getByRole('button', { name: button }));
};

describe('/operations/withdrawals: paying out by hand', () => {
  beforeEach(resetSession);

  it('processes with the payout reference, then the list is empty', async () => {
    const api = withdrawalsApi();
    const { user } = renderApp('/operations/withdrawals');
    await openStep(user, 'Process');
    const dialog = screen.getByRole('dialog', { name: 'Process withdrawal' });
    expect(dialog.textContent).toMatch(/120\.00.*user-9/);
    await user.type(within(dialog).getByLabelText('Payout Reference'), 'EFT-2026-1125');
    await user.click(within(dialog).getByRole('button', { name: 'Process' }));
    expect(await screen.findByText('Withdrawal processed')).toBeTruthy();
    expect(await screen.findByText('No pending withdrawals')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/process-withdrawal');
    expect(sent?.body).toEqual({ tx_id: 'tx-withdraw-1', payout_reference: 'EFT-2026-1125' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.sent('POST', '/api/operations/fail-withdrawal')).toHaveLength(0);
  });

  it('fails with a reason', async () => {
    const api = withdrawalsApi();
    const { user } = renderApp('/operations/withdrawals');
    await openStep(user, 'Fail');
    const dialog = screen.getByRole('dialog', { name: 'Fail withdrawal' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Account closed at the bank');
    await user.click(within(dialog).getByRole('button', { name: 'Fail' }));
    expect(await screen.findByText('Withdrawal failed')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/fail-withdrawal');
    expect(sent?.body).toEqual({ tx_id: 'tx-withdraw-1', reason: 'Account closed at the bank' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the dialog open with the route's words for a missing payout reference, sending nothing", async () => {
    const api = withdrawalsApi({
      'POST /api/operations/process-withdrawal': () =>
        refused(422, [{ code: 4001, field: 'payout_reference', message: 'Please enter Payout Reference' }]),
    });
    const { user } = renderApp('/operations/withdrawals');
    await openStep(user, 'Process');
    const dialog = screen.getByRole('dialog', { name: 'Process withdrawal' });
    await user.click(within(dialog).getByRole('button', { name: 'Process' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please enter Payout Reference');
    // Under the field it is about, named by its aria-describedby.
    const payoutReference = within(dialog).getByLabelText('Payout Reference');
    expect(payoutReference.getAttribute('aria-invalid')).toBe('true');
    const errorId = payoutReference.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('Please enter Payout Reference');
    expect(api.sent('POST', '/api/operations/process-withdrawal')).toHaveLength(0);
  });
});
