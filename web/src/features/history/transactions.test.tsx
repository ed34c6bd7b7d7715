import type { LedgerEntry, TransactionView } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeLiveSocket,
  fakeApi,
  held,
  ok,
  refused,
  renderApp,
  resetSession,
  sessionUser,
  type Handler,
} from '../../testing/app.tsx';
import { i18n } from '../../i18n/i18n.ts';
import { transactionView } from '../../testing/transactions.ts';
import { csvCell, ledgerCsv, transactionsCsv } from './history-csv.ts';
import { parseAuditSerial } from './HistoryDetails.tsx';

const transaction = (overrides: Partial<TransactionView> = {}): TransactionView =>
  transactionView({ tx_id: 'tx-rent', entry_date: '2026-11-20T14:05:00.000Z', reference: 'March Rent', ...overrides });

const entry = (overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  ledger_id: '41.0',
  entry_date: '2026-11-20T14:05:00.000Z',
  type: 'P2P_SENT',
  amount: 30_000,
  currency: 'CON',
  debit_credit: 'D',
  tx_id: 'tx-rent',
  ...overrides,
});

function historyApi(handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'GET /api/account/balance': () =>
      ok({
        balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] },
      }),
    'POST /api/account/transactions': () => ok({ transactions: [transaction()], total: 1 }),
    'POST /api/account/ledger': () => ok({ ledgers: [entry()], total: 1 }),
    'GET /api/wallet/list-audit': () =>
      ok({
        ledgers: [
          {
            from_serial: 'PKS-0001:user:7:CON:25000',
            from_another_wallet: false,
            action: 'moved',
            entry_date: '2026-11-20T14:05:00.000Z',
          },
          {
            from_serial: 'PKS-0002:user:7:CON:5000',
            from_another_wallet: false,
            action: 'split',
            entry_date: '2026-11-20T14:05:00.000Z',
          },
        ],
      }),
    ...handlers,
  });
}

describe('/transaction (spec §2 Transactions and ledger)', () => {
  beforeEach(() => {
    resetSession();
  });

  it('shows a skeleton while loading, then the transactions with their columns, amounts signed', async () => {
    const first = held();
    historyApi({ 'POST /api/account/transactions': () => first.answer });
    renderApp('/transaction');
    expect(await screen.findByRole('heading', { level: 1, name: 'Transactions' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Transactions' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Ledger' })).toBeTruthy();
    await waitFor(() => {
      expect(document.querySelector('.skeleton[role="status"]')).not.toBeNull();
    });
    first.release(ok({ transactions: [transaction()], total: 1 }));
    const table = await screen.findByRole('table', { name: 'Transactions' });
    for (const column of ['Date', 'Type', 'With', 'Reference', 'Amount', 'Wallet change', 'State', 'Actions'])
      expect(within(table).getByRole('columnheader', { name: column })).toBeTruthy();
    expect(within(table).getByText('Transfer')).toBeTruthy();
    expect(within(table).getByText('March Rent')).toBeTruthy();
    expect(within(table).getAllByText('−300.00 Coins')).toHaveLength(2);
    expect(within(table).getByText('completed')).toBeTruthy();
  });

  it('shows a send paid by card as no wallet change, with the card charged and the recipient by name', async () => {
    historyApi({
      'POST /api/account/transactions': () =>
        ok({
          transactions: [
            transaction({
              amount: 15_00,
              wallet_change: 0,
              funding: { amount: 97, currency: 'USD', label: 'Visa •••• 4242' },
              counterparty: { kind: 'user', name: 'Bob Birch', username: 'bob' },
              payment_method_type: 'CC',
              payment_method: '2',
            }),
          ],
          total: 1,
        }),
    });
    const { user } = renderApp('/transaction');
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(within(table).getByText('Bob Birch (@bob)')).toBeTruthy();
    expect(within(table).getByText('−15.00 Coins')).toBeTruthy();
    expect(within(table).getByText('0.00 Coins')).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Details of tx-rent' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    const fact = (label: string) => within(dialog).getByText(label).nextElementSibling?.textContent;
    expect(fact('Wallet change')).toBe('0.00 Coins');
    expect(fact('To')).toBe('Bob Birch (@bob)');
    expect(fact('Paid with')).toBe('Visa •••• 4242 · $0.97 USD');
    // Codes are not names: no "CC 2".
    expect(within(dialog).queryByText('Payment method')).toBeNull();
    expect(within(dialog).queryByText(/CC 2/)).toBeNull();
  });

  it('names the card a purchase was paid with and the bank a withdrawal pays out to', async () => {
    historyApi({
      'POST /api/account/transactions': () =>
        ok({
          transactions: [
            transaction({
              tx_id: 'tx-bought',
              type: 'purchase',
              debit_credit: 'C',
              wallet_change: 30_000,
              funding: { amount: 19_24, currency: 'USD', label: 'Visa •••• 4242' },
            }),
            transaction({
              tx_id: 'tx-out',
              type: 'withdraw',
              wallet_change: -30_000,
              funding: { amount: 30_000, currency: 'CON', label: 'Bank •••• 6789' },
            }),
          ],
          total: 2,
        }),
    });
    const { user } = renderApp('/transaction');
    await user.click(await screen.findByRole('button', { name: 'Details of tx-bought' }));
    let dialog = screen.getByRole('dialog', { name: 'Details' });
    expect(within(dialog).getByText('Paid with').nextElementSibling?.textContent).toBe('Visa •••• 4242 · $19.24 USD');
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await user.click(screen.getByRole('button', { name: 'Details of tx-out' }));
    dialog = screen.getByRole('dialog', { name: 'Details' });
    expect(within(dialog).getByText('Paid out to').nextElementSibling?.textContent).toBe(
      'Bank •••• 6789 · 300.00 Coins',
    );
  });

  it("says 'No records found' when nothing matches", async () => {
    historyApi({ 'POST /api/account/transactions': () => ok({ transactions: [], total: 0 }) });
    renderApp('/transaction');
    expect(await screen.findByText('No records found')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('sends the filters the form was given, checked by the shared schema first', async () => {
    const api = historyApi();
    const { user } = renderApp('/transaction');
    await screen.findByRole('table', { name: 'Transactions' });
    await user.selectOptions(screen.getByLabelText('Type'), 'transfer');
    // The currencies by name, as the wallet says them; the codes go to the API.
    const currency = screen.getByLabelText<HTMLSelectElement>('Currency');
    expect([...currency.options].map((option) => option.text)).toEqual([
      'All currencies',
      'USD',
      'CAD',
      'Coins',
      'Impressions',
    ]);
    await user.selectOptions(currency, 'CON');
    await user.type(screen.getByLabelText('From'), '2026-11-10');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    // A range that ends before it starts is stopped here, in the words the server would use.
    expect((await screen.findByRole('alert')).textContent).toBe('The to date must not be before the from date');
    expect(api.sent('POST', '/api/account/transactions')).toHaveLength(1);

    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await user.type(screen.getByLabelText('Search'), 'rent');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/transactions').at(-1)?.body).toEqual({
        type: 'transfer',
        currency: 'CON',
        from: '2026-11-10',
        to: '2026-11-30',
        search: 'rent',
        offset: 0,
        limit: 15,
      });
    });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/transactions').at(-1)?.body).toEqual({ offset: 0, limit: 15 });
    });
  });

  it('the Filters button opens and closes the filters, counts those applied, and takes the focus back', async () => {
    historyApi();
    const { user } = renderApp('/transaction');
    await screen.findByRole('table', { name: 'Transactions' });
    const toggle = screen.getByRole('button', { name: 'Filters' });
    const form = document.getElementById(toggle.getAttribute('aria-controls') ?? '')!;
    expect(form.getAttribute('aria-label')).toBe('Filters');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(form.classList.contains('open')).toBe(false);

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(form.classList.contains('open')).toBe(true);
    await user.keyboard(' ');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    await user.selectOptions(screen.getByLabelText('Currency'), 'CON');
    await user.type(screen.getByLabelText('Search'), 'rent');
    // Typed but not applied: nothing is counted yet.
    expect(toggle.textContent).toBe('Filters');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => {
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
    });
    // Seen as a count on the button, heard as "Filters (2 active)".
    expect(screen.getByRole('button', { name: 'Filters (2 active)' })).toBe(toggle);
    expect(toggle.querySelector('.filter-count')?.textContent).toBe('2');
    expect(document.activeElement).toBe(toggle);

    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(toggle.textContent).toBe('Filters');
  });

  it('pages 15 at a time with at most five page numbers', async () => {
    const api = historyApi({
      'POST /api/account/transactions': (body) => {
        const offset = (body as { offset: number }).offset;
        return ok({ transactions: [transaction({ tx_id: `tx-${String(offset)}` })], total: 150 });
      },
    });
    const { user } = renderApp('/transaction');
    const pages = await screen.findByRole('navigation', { name: 'Transactions' });
    expect(within(pages).getAllByRole('button', { name: /^Page/ })).toHaveLength(5);
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/transactions').at(-1)?.body).toMatchObject({ offset: 30, limit: 15 });
    });
    expect(await screen.findByRole('button', { name: 'Details of tx-30' })).toBeTruthy();
  });

  it("opens a transaction's Details with the fields a person needs", async () => {
    historyApi({
      'POST /api/account/transactions': () =>
        ok({
          transactions: [
            transaction({
              debit_credit: 'C',
              wallet_change: 30_000,
              hold_amount: 30_000,
              hold_release_at: '2026-11-27T14:05:00.000Z',
            }),
          ],
          total: 1,
        }),
    });
    const { user } = renderApp('/transaction');
    await user.click(await screen.findByRole('button', { name: 'Details of tx-rent' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    expect(within(dialog).getByText('tx-rent')).toBeTruthy();
    expect(within(dialog).getByText('In (credit)')).toBeTruthy();
    expect(within(dialog).getAllByText('+300.00 Coins')).toHaveLength(2);
    expect(within(dialog).getByText('On hold')).toBeTruthy();
    expect(within(dialog).getByText('Hold releases')).toBeTruthy();
    // The footer's Close (the header's × is named Close too).
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the Ledger tab labels codes per §4, raw when unknown, and its Details show the audit list', async () => {
    const api = historyApi({
      'POST /api/account/ledger': () =>
        ok({ ledgers: [entry(), entry({ ledger_id: '42.1', type: 'NEW_CODE', debit_credit: 'C' })], total: 2 }),
    });
    const { user, router } = renderApp('/transaction');
    await user.click(await screen.findByRole('tab', { name: 'Ledger' }));
    expect(router.state.location.search).toBe('?tab=ledger');
    const table = await screen.findByRole('table', { name: 'Ledger' });
    expect(within(table).getByText('P2P Sent')).toBeTruthy();
    expect(within(table).getByText('NEW_CODE')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Details of 41.0' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    const audit = await within(dialog).findByRole('table', { name: 'Audit' });
    for (const column of ['serialNo', 'amount', 'currency', 'action'])
      expect(within(audit).getByRole('columnheader', { name: column })).toBeTruthy();
    expect(within(audit).getByText('PKS-0001')).toBeTruthy();
    expect(within(audit).getByText('250.00 Coins')).toBeTruthy();
    expect(within(audit).getByText('split')).toBeTruthy();
    expect(api.sent('GET', '/api/wallet/list-audit')).toHaveLength(1);
  });

  it.each([
    ['en', 'From another wallet'],
    ['ja', '別のウォレットから'],
    ['mr', 'दुसऱ्या वॉलेटमधून'],
  ])("shows another wallet's coins as 'From another wallet' only (%s)", async (language, label) => {
    await i18n.changeLanguage(language);
    try {
      historyApi({
        'GET /api/wallet/list-audit': () =>
          ok({
            ledgers: [
              { from_serial: null, from_another_wallet: true, action: 'SPLIT', entry_date: '2026-11-20T14:05:00.000Z' },
              {
                from_serial: 'PKS-0009::CON:300',
                from_another_wallet: true,
                action: 'MOVE',
                entry_date: '2026-11-20T14:05:00.000Z',
              },
            ],
          }),
      });
      const { user } = renderApp('/transaction?tab=ledger');
      await user.click(await screen.findByRole('button', { name: i18n.t('history.details_of', { what: '41.0' }) }));
      const audit = await screen.findByRole('table', { name: i18n.t('history.audit.title') });
      const [split, move] = within(audit).getAllByRole('row').slice(1);
      if (!split || !move) throw new Error('two audit rows expected');
      const [splitSerial, splitAmount] = within(split).getAllByRole('cell');
      expect(splitSerial?.textContent).toBe(label);
      expect(splitAmount?.textContent).toBe('—');
      expect(within(move).getByText('PKS-0009')).toBeTruthy();
      expect(within(move).getByText(label)).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("shows 'No transaction or currency details' for an empty audit list", async () => {
    historyApi({ 'GET /api/wallet/list-audit': () => ok({ ledgers: [] }) });
    const { user } = renderApp('/transaction?tab=ledger');
    await user.click(await screen.findByRole('button', { name: 'Details of 41.0' }));
    expect(await screen.findByText('No transaction or currency details')).toBeTruthy();
  });

  it('reloads the page shown when the live feed reports new activity', async () => {
    const api = historyApi();
    renderApp('/transaction');
    await screen.findByRole('table', { name: 'Transactions' });
    const before = api.sent('POST', '/api/account/transactions').length;
    FakeLiveSocket.push({ type: 'activity', transaction: transaction({ tx_id: 'tx-new' }) });
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/transactions').length).toBe(before + 1);
    });
  });

  it('says the list could not be loaded, and Try again reads it again', async () => {
    let calls = 0;
    historyApi({
      'POST /api/account/transactions': () =>
        ++calls === 1
          ? refused(500, [{ code: 9999, message: 'Something went wrong' }])
          : ok({ transactions: [transaction()], total: 1 }),
    });
    const { user } = renderApp('/transaction');
    expect((await screen.findByRole('alert')).textContent).toContain('The list could not be loaded.');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Transactions' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toBe(2);
  });

  it('exports every filtered record as CSV, a hundred a call', async () => {
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          created.push(blob);
          return 'blob:history';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const api = historyApi({
      'POST /api/account/transactions': (body) => {
        const { offset, limit } = body as { offset: number; limit: number };
        const count = Math.max(0, Math.min(limit, 120 - offset));
        return ok({
          transactions: Array.from({ length: count }, (_, index) =>
            transaction({ tx_id: `tx-${String(offset + index)}` }),
          ),
          total: 120,
        });
      },
    });
    const { user } = renderApp('/transaction');
    await screen.findByRole('table', { name: 'Transactions' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('The list was downloaded as transactions.csv.')).toBeTruthy();
    const limits = api.sent('POST', '/api/account/transactions').map((call) => (call.body as { limit: number }).limit);
    expect(limits.filter((limit) => limit === 100)).toHaveLength(2);
    expect(created).toHaveLength(1);
    const text = await created[0]!.text();
    expect(text.trim().split('\r\n')).toHaveLength(121);
  });
});

describe('the history CSV', () => {
  it('quotes what needs quoting and keeps a typed formula from running', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('=HYPERLINK("x")', { typed: true })).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(null)).toBe('');
  });

  it('signs money out, keeps decimals, and names the ledger label beside the code', () => {
    expect(transactionsCsv([transaction()]).split('\r\n')[1]).toBe(
      '2026-11-20T14:05:00.000Z,tx-rent,transfer,completed,D,-300.00,0.00,CON,-300.00,-300.00,,,,,March Rent',
    );
    expect(ledgerCsv([entry({ debit_credit: 'C', type: 'DEP_CC' })]).split('\r\n')[1]).toBe(
      '2026-11-20T14:05:00.000Z,41.0,DEP_CC,Credit Card Deposit,C,300.00,CON,tx-rent',
    );
  });

  it('has wallet changes that sum to the balance, and a running balance per currency ending on it', () => {
    // Newest first, as the list comes: a purchase, a send by card, a send from the wallet, two card checkouts.
    const history = [
      transaction({
        tx_id: 'checkout-2',
        type: 'sale',
        currency: 'USD',
        amount: 3_00,
        wallet_change: 0,
        funding: { amount: 3_00, currency: 'USD', label: 'Visa •••• 4242' },
        counterparty: { kind: 'merchant', name: 'Maple Coffee', username: null },
      }),
      transaction({
        tx_id: 'checkout-1',
        type: 'sale',
        currency: 'USD',
        amount: 35_50,
        wallet_change: 0,
        funding: { amount: 35_50, currency: 'USD', label: 'Visa •••• 4242' },
      }),
      transaction({ tx_id: 'by-wallet', amount: 7_25, wallet_change: -7_25 }),
      transaction({
        tx_id: 'by-card',
        amount: 15_00,
        wallet_change: 0,
        funding: { amount: 97, currency: 'USD', label: 'Visa •••• 4242' },
      }),
      transaction({ tx_id: 'bought', type: 'purchase', debit_credit: 'C', amount: 1_544_75, wallet_change: 1_544_75 }),
    ];
    const [header, ...lines] = transactionsCsv(history).trim().split('\r\n');
    const columns = header!.split(',');
    const cell = (line: string, name: string) => line.split(',')[columns.indexOf(name)] ?? '';
    const balances = { CON: 1_537_50, USD: 0 };
    for (const currency of ['CON', 'USD'] as const) {
      const mine = lines.filter((line) => cell(line, 'currency') === currency);
      const sum = mine.reduce((total, line) => total + Math.round(Number(cell(line, 'wallet_change')) * 100), 0);
      expect(sum).toBe(balances[currency]);
      expect(Math.round(Number(cell(mine[0]!, 'running_balance')) * 100)).toBe(balances[currency]);
    }
    expect(cell(lines[3]!, 'wallet_change')).toBe('0.00');
    expect(cell(lines[3]!, 'funding')).toBe('Visa •••• 4242');
    expect(cell(lines[3]!, 'funding_amount')).toBe('0.97');
    expect(cell(lines[0]!, 'counterparty')).toBe('Maple Coffee');
  });

  it('reads an audit serial whose account holds colons', () => {
    expect(parseAuditSerial('PKS-9:platform:card-funding:USD:CON:1250')).toEqual({
      serial: 'PKS-9',
      value: 1250,
      currency: 'CON',
    });
  });
});
