import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { held, ok, refused, renderApp, resetSession } from '../../testing/app.tsx';
import { bitcoinDeposit, consoleApi, pendingDeposit, transaction } from './testing.ts';

const zelle = pendingDeposit({
  tx_id: 'tx-zelle-1',
  method: 'zelle',
  reference: 'PKSZELLE',
  payment: { amount: 75_00, currency: 'USD' },
  user_id: 10,
  username: 'demo_business',
});

/** The deposits page's answers: pending e-mail transfers (filtered by `method` as the API does) and flagged bitcoin. */
function depositsApi(handlers: Parameters<typeof consoleApi>[0] = {}, flagged = [bitcoinDeposit()]) {
  return consoleApi({
    'GET /api/operations/deposits': (_body, url) => {
      const method = url.searchParams.get('method');
      const deposits = [pendingDeposit(), zelle].filter((each) => method === null || each.method === method);
      return ok({ deposits, total: deposits.length });
    },
    'GET /api/operations/bitcoin-deposits': () => ok({ deposits: flagged, total: flagged.length }),
    ...handlers,
  });
}

const pendingTable = () => screen.findByRole('table', { name: 'Pending e-mail transfers' });
const rowOf = async (reference: string) => {
  const row = within(await pendingTable())
    .getAllByRole('row')
    .find((each) => within(each).queryByText(reference) !== null);
  if (!row) throw new Error(`no row for ${reference}`);
  return row;
};

/** The texts a control's aria-describedby names: its hint and its error, as a screen reader reads them. */
const describedBy = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('/operations/deposits: matching incoming transfers', () => {
  beforeEach(resetSession);

  it('lists pending deposits with their user and expected amount, and filters by method', async () => {
    const api = depositsApi();
    const { user } = renderApp('/operations/deposits');
    // The fake API filters by the `method` query as the server does: PKSDEMO1 leaving proves it was sent.
    const interac = await rowOf('PKSDEMO1');
    expect(within(interac).getByRole('link', { name: 'demo_personal' }).getAttribute('href')).toBe(
      '/operations/people?user=9',
    );
    expect(within(interac).getByText(/50\.00/)).toBeTruthy();
    expect(await rowOf('PKSZELLE')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Method filter'), 'zelle');
    await waitFor(() => {
      expect(
        within(screen.getByRole('table', { name: 'Pending e-mail transfers' })).queryByText('PKSDEMO1'),
      ).toBeNull();
    });
    expect(within(await pendingTable()).getByText('PKSZELLE')).toBeTruthy();
    expect(api.sent('GET', '/api/operations/deposits')).toHaveLength(2);
  });

  it('clears with the amount, currency and reference received, once for a double click', async () => {
    const answer = held();
    const api = depositsApi({ 'POST /api/operations/clear-deposit': () => answer.answer });
    const { user } = renderApp('/operations/deposits');
    await user.click(within(await rowOf('PKSDEMO1')).getByRole('button', { name: 'Clear' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear deposit PKSDEMO1' });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Currency').value).toBe('CAD');
    await user.type(within(dialog).getByLabelText('Amount received'), '50.00');
    await user.type(within(dialog).getByLabelText('Memo'), 'PKSDEMO1');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Clear' }));
    answer.release(ok({ transaction: transaction('tx-interac-1') }));
    expect(await screen.findByText('Deposit cleared')).toBeTruthy();
    const sent = api.sent('POST', '/api/operations/clear-deposit');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      tx_id: 'tx-interac-1',
      amount_received: 50_00,
      currency: 'CAD',
      reference: 'PKSDEMO1',
    });
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the API's mismatch codes in words, and a resend after no answer keeps its Idempotency-Key", async () => {
    let round = 0;
    const api = depositsApi({
      'POST /api/operations/clear-deposit': () => {
        round += 1;
        return round === 1
          ? refused(503, [{ code: 50300, message: 'Service unavailable' }])
          : refused(422, [
              { code: 42280, field: 'amount_received', message: 'amount_mismatch' },
              { code: 42281, field: 'reference', message: 'reference_mismatch' },
            ]);
      },
    });
    const { user } = renderApp('/operations/deposits');
    await user.click(within(await rowOf('PKSDEMO1')).getByRole('button', { name: 'Clear' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear deposit PKSDEMO1' });
    await user.type(within(dialog).getByLabelText('Amount received'), '49');
    await user.type(within(dialog).getByLabelText('Memo'), 'WRONG');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await within(dialog).findByRole('alert');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    const alert = await within(dialog).findByText('The amount received does not match the deposit');
    expect(within(dialog).getByText('The reference does not match the deposit')).toBeTruthy();
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    const [first, second] = api.sent('POST', '/api/operations/clear-deposit');
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body).toMatchObject({ amount_received: 49_00, reference: 'WRONG' });
  });

  it("puts the API's refusal of a field under that field, and keeps the alert for the rest", async () => {
    depositsApi({
      'POST /api/operations/clear-deposit': () =>
        refused(422, [
          { code: 42206, field: 'tx_id', message: 'transaction_state_invalid' },
          { code: 42280, field: 'amount_received', message: 'amount_mismatch' },
          { code: 42281, field: 'reference', message: 'reference_mismatch' },
        ]),
    });
    const { user } = renderApp('/operations/deposits');
    await user.click(within(await rowOf('PKSDEMO1')).getByRole('button', { name: 'Clear' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear deposit PKSDEMO1' });
    const amount = within(dialog).getByLabelText('Amount received');
    const reference = within(dialog).getByLabelText('Memo');
    await user.type(amount, '49');
    await user.type(reference, 'WRONG');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await within(dialog).findByText('The reference does not match the deposit');
    expect(describedBy(amount)).toBe('The amount received does not match the deposit');
    expect(describedBy(reference)).toBe(
      "The transfer's message, as the bank's notice shows it The reference does not match the deposit",
    );
    expect(reference.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Currency').getAttribute('aria-invalid')).toBe('false');
    // Each said once, announced where it stands: the transaction's state has no field here, so the alert says it.
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual([
      'The transaction cannot do that in its current state',
      'The amount received does not match the deposit',
      'The reference does not match the deposit',
    ]);

    await user.type(reference, 'X');
    expect(reference.getAttribute('aria-invalid')).toBe('false');
    expect(within(dialog).queryByText('The reference does not match the deposit')).toBeNull();
  });

  it("refuses an empty Clear in the route's words without sending it", async () => {
    const api = depositsApi();
    const { user } = renderApp('/operations/deposits');
    await user.click(within(await rowOf('PKSDEMO1')).getByRole('button', { name: 'Clear' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear deposit PKSDEMO1' });
    const amount = within(dialog).getByLabelText('Amount received');
    const reference = within(dialog).getByLabelText('Memo');
    // Text that is no amount is invalid, not missing.
    await user.type(amount, 'fifty');
    await user.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await within(dialog).findByText('Please enter Memo');
    // Under the fields they are about, each announced once, and no alert above them repeats them.
    expect(describedBy(amount)).toBe('Invalid amount');
    expect(describedBy(reference)).toBe("The transfer's message, as the bank's notice shows it Please enter Memo");
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual(['Invalid amount', 'Please enter Memo']);
    expect(api.sent('POST', '/api/operations/clear-deposit')).toHaveLength(0);

    await user.type(reference, 'PKSDEMO1');
    expect(within(dialog).queryAllByRole('alert')).toEqual([]);
  });

  it('rejects with a reason', async () => {
    const api = depositsApi({
      'POST /api/operations/reject-deposit': () => ok({ transaction: transaction('tx-zelle-1') }),
    });
    const { user } = renderApp('/operations/deposits');
    await user.click(within(await rowOf('PKSZELLE')).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject deposit PKSZELLE' });
    await user.type(within(dialog).getByLabelText('Reason'), 'No transfer arrived');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Deposit rejected')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/reject-deposit');
    expect(sent?.body).toEqual({ tx_id: 'tx-zelle-1', reason: 'No transfer arrived' });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists flagged bitcoin deposits first, and resolves one with a refund to an address', async () => {
    const api = depositsApi({
      'POST /api/operations/resolve-bitcoin-deposit': () =>
        ok({ deposit: bitcoinDeposit({ resolution: 'refunded' }), transaction: null }),
    });
    const { user } = renderApp('/operations/deposits');
    const bitcoin = await screen.findByRole('table', { name: 'Bitcoin deposits waiting for an operator' });
    const tables = screen.getAllByRole('table');
    expect(tables.indexOf(bitcoin)).toBe(0);
    const [, row] = within(bitcoin).getAllByRole('row');
    if (!row) throw new Error('a flagged row expected');
    expect(within(row).getByText('underpaid')).toBeTruthy();
    expect(within(row).getByText('100000 / 80000')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog', { name: 'Resolve bitcoin deposit' });
    expect(within(dialog).getByText('Paid 80000 of 100000 sats')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Refund Address')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Resolution'), 'refund');
    await user.type(within(dialog).getByLabelText('Refund Address'), 'bcrt1qrefund');
    await user.type(within(dialog).getByLabelText('Reason'), 'Customer asked for the money back');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Bitcoin deposit resolved')).toBeTruthy();
    const [sent] = api.sent('POST', '/api/operations/resolve-bitcoin-deposit');
    expect(sent?.body).toEqual({
      tx_id: 'tx-btc-1',
      resolution: 'refund',
      refund_address: 'bcrt1qrefund',
      reason: 'Customer asked for the money back',
    });
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a refund with no address in the route's words without sending it", async () => {
    const api = depositsApi();
    const { user } = renderApp('/operations/deposits');
    const bitcoin = await screen.findByRole('table', { name: 'Bitcoin deposits waiting for an operator' });
    await user.click(within(bitcoin).getByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog', { name: 'Resolve bitcoin deposit' });
    await user.selectOptions(within(dialog).getByLabelText('Resolution'), 'refund');
    await user.type(within(dialog).getByLabelText('Reason'), 'Customer asked for the money back');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please enter Refund Address');
    expect(describedBy(within(dialog).getByLabelText('Refund Address'))).toBe('Please enter Refund Address');
    expect(api.sent('POST', '/api/operations/resolve-bitcoin-deposit')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Reason'));
    await user.type(within(dialog).getByLabelText('Refund Address'), 'bcrt1qrefund');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please enter Reason');
    expect(describedBy(within(dialog).getByLabelText('Reason'))).toBe('Please enter Reason');
    expect(api.sent('POST', '/api/operations/resolve-bitcoin-deposit')).toHaveLength(0);
  });
});
