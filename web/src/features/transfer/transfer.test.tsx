import type { Recipient, TransactionView } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, held, ok, refused, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';
import { queryClient } from '../../lib/query.ts';
import { walletKeys } from '../wallet/index.ts';

const GID = '5d2c6a7e-3b1f-4c1e-8f3e-2a9b7c6d5e41';
const marie: Recipient = {
  user_id: 12,
  guser_id: GID,
  username: 'marie_g',
  fullname: 'Marie Gagnon',
  avatar: null,
  city: 'Ottawa',
  country: 'CA',
};

const transaction = (amount: number, currency: string) =>
  transactionView({
    entry_date: '2026-11-21 20:00:00',
    type: 'P2P_SENT',
    tx_class: 'P2P',
    amount,
    currency: currency as TransactionView['currency'],
  });

const line = (currency: string, available: number) => ({
  currency,
  balance: available,
  available_balance: available,
  withdrawable_balance: available,
  combined: currency === 'CON',
});
/** Enough in each currency for the transfers below; 20.00 CAD, so 25.00 CAD is above it. */
const balance = {
  currency: 'CON',
  balance: 50_000,
  available_balance: 50_000,
  withdrawable_balance: 50_000,
  balances: [line('CON', 50_000), line('USD', 50_000), line('CAD', 2_000)],
};

function transferApi(handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }),
    'GET /api/user/recipient-lookup': (_body, url) =>
      url.searchParams.get('guser_id') === GID
        ? ok({ user: marie })
        : refused(404, [{ code: 40440, field: 'guser_id', message: 'User not found' }]),
    'POST /api/account/send-fund': (body) => {
      const { amount, currency } = body as { amount: number; currency: string };
      return ok({ transaction: transaction(amount, currency) });
    },
    'GET /api/account/balance': () => ok({ balance }),
    ...handlers,
  });
}

const idempotencyKeys = (api: ReturnType<typeof transferApi>) =>
  api.sent('POST', '/api/account/send-fund').map((call) => call.headers['idempotency-key']);

describe('/transfer-fund?gid&uid&amt&cur (spec §2 Transfer fund, §4 Funds, §5 Transfer fund amount)', () => {
  beforeEach(() => {
    resetSession();
    // The balance read starts afresh with the query cache, which testing/setup.ts clears.
  });

  it.each([
    ['no gid', '/transfer-fund'],
    ['a gid nobody has', '/transfer-fund?gid=6f1c1f52-1b1c-4a52-9d0c-000000000000&uid=12'],
    ["a uid that is not the gid's user", `/transfer-fund?gid=${GID}&uid=13`],
  ])("%s: the 'User not found' modal, with Go Back to /", async (_case, path) => {
    transferApi();
    const { user, router } = renderApp(path);
    const dialog = await screen.findByRole('dialog', { name: 'User not found' });
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'User not found' })).toBe(dialog);
    await user.click(within(dialog).getByRole('link', { name: 'Go Back' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });

  it("the amount modal shows the recipient, the spec's notice and every amount rule in the spec words", async () => {
    transferApi();
    const { user } = renderApp(`/transfer-fund?gid=${GID}&uid=12`);
    const dialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    expect(within(dialog).getByText('Marie Gagnon')).toBeTruthy();
    expect(within(dialog).getByText('Ottawa, Canada')).toBeTruthy();
    expect(
      within(dialog).getByText('Recipient will be notified of your transfer within 1-60 mins of completion..'),
    ).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Currency').value).toBe('CON');
    expect(within(dialog).getByRole('button', { name: 'Go Back' })).toBeTruthy();

    const amount = within(dialog).getByLabelText('Amount');
    const send = within(dialog).getByRole('button', { name: 'Send Money Transfer' });
    const shows = async (typed: string, text: string) => {
      await user.clear(amount);
      if (typed !== '') await user.type(amount, typed);
      await user.click(send);
      expect(await within(dialog).findByText(text)).toBeTruthy();
    };
    await shows('', 'Please enter amount');
    await shows('0', 'Please enter amount should be greater than 0');
    await shows('500.01', 'Please enter amount should be less than 500');
    await shows('12,50', 'Please enter valid amount');
    await shows('12345678901', 'Please enter at most 10 characters amount');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), '');
    await shows('5', 'Please select Currency');
    expect(screen.queryByRole('dialog', { name: 'Confirm Transfer' })).toBeNull();
  });

  it('confirms Recipient, Amount, Fee $0.00 and Total; Go Back returns to the amount kept; Complete Transfer sends once and shows Transfer Completed', async () => {
    const sent = held();
    const api = transferApi({ 'POST /api/account/send-fund': () => sent.answer });
    const { user, router } = renderApp(`/transfer-fund?gid=${GID}&uid=12`);
    const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    await user.type(within(amountDialog).getByLabelText('Amount'), '12.5');
    await user.selectOptions(within(amountDialog).getByLabelText('Currency'), 'USD');
    await user.click(within(amountDialog).getByRole('button', { name: 'Send Money Transfer' }));

    let confirm = await screen.findByRole('dialog', { name: 'Confirm Transfer' });
    const summary = () =>
      Object.fromEntries(
        within(screen.getByRole('dialog', { name: 'Confirm Transfer' }))
          .getAllByRole('term')
          .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
      );
    expect(summary()).toEqual({
      Recipient: 'Marie Gagnon',
      Amount: '$12.50 USD',
      Fee: '$0.00',
      Total: '$12.50 USD',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Go Back' }));
    const again = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    expect(within(again).getByLabelText('Amount')).toHaveProperty('value', '12.50');
    expect(within(again).getByLabelText('Currency')).toHaveProperty('value', 'USD');
    await user.click(within(again).getByRole('button', { name: 'Send Money Transfer' }));

    confirm = await screen.findByRole('dialog', { name: 'Confirm Transfer' });
    // The dashboard layout read the balance when it opened; the transfer reads it once more.
    const balanceReads = api.sent('GET', '/api/account/balance').length;
    await user.click(within(confirm).getByRole('button', { name: 'Complete Transfer' }));
    expect(await screen.findByRole('dialog', { name: 'Processing' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Processing' })).toBeTruthy();
    sent.release(ok({ transaction: transaction(1250, 'USD') }));

    const done = await screen.findByRole('dialog', { name: 'Transfer Completed' });
    expect(within(done).getByText('$12.50 USD sent to Marie Gagnon.')).toBeTruthy();
    expect(api.sent('POST', '/api/account/send-fund').map((call) => call.body)).toEqual([
      { guser_id: GID, amount: 1250, currency: 'USD' },
    ]);
    expect(idempotencyKeys(api)[0]).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => {
      expect(api.sent('GET', '/api/account/balance')).toHaveLength(balanceReads + 1);
    });
    await waitFor(() => {
      expect(queryClient.getQueryState(walletKeys.balance())?.status).toBe('success');
    });
    await user.click(within(done).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });

  it.each([
    ['7', 'USD', 'Amount (USD)', '7', 700],
    ['12.5', 'CAD', 'Amount (CAD)', '12.5', 1250],
    ['499.99', 'CON', 'Amount (Coins)', '499.99', 49_999],
  ])(
    'reads amt=%s&cur=%s as currency units (%s), as a QR payload means it: %s, paid as %i minor units',
    async (amt, cur, label, shown, minor) => {
      const api = transferApi();
      const { user } = renderApp(`/transfer-fund?gid=${GID}&uid=12&amt=${amt}&cur=${cur}&comment=Table%207`);
      const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
      expect(within(amountDialog).getByLabelText(label)).toHaveProperty('value', shown);
      await user.click(within(amountDialog).getByRole('button', { name: 'Send Money Transfer' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Confirm Transfer' })).getByRole('button', {
          name: 'Complete Transfer',
        }),
      );
      await screen.findByRole('dialog', { name: 'Transfer Completed' });
      expect(api.sent('POST', '/api/account/send-fund')[0]?.body).toEqual({
        guser_id: GID,
        amount: minor,
        currency: cur,
        comment: 'Table 7',
      });
    },
  );

  it('leaves the amount empty for an amt that is not a typed amount', async () => {
    transferApi();
    renderApp(`/transfer-fund?gid=${GID}&uid=12&amt=1e3&cur=USD`);
    const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    expect(within(amountDialog).getByLabelText('Amount (USD)')).toHaveProperty('value', '');
  });

  it('a double click on Complete Transfer sends one request with one Idempotency-Key', async () => {
    // The answer is held back, so both clicks land while the first request is still in flight.
    const sent = held();
    const api = transferApi({ 'POST /api/account/send-fund': () => sent.answer });
    const { user } = renderApp(`/transfer-fund?gid=${GID}&uid=12`);
    const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    await user.type(within(amountDialog).getByLabelText('Amount'), '3');
    await user.click(within(amountDialog).getByRole('button', { name: 'Send Money Transfer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm Transfer' });
    await user.dblClick(within(confirm).getByRole('button', { name: 'Complete Transfer' }));
    expect(api.sent('POST', '/api/account/send-fund')).toHaveLength(1);
    sent.release(ok({ transaction: transaction(300, 'CON') }));
    await screen.findByRole('dialog', { name: 'Transfer Completed' });
    expect(api.sent('POST', '/api/account/send-fund')).toHaveLength(1);
    expect(idempotencyKeys(api)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(api.sent('POST', '/api/account/send-fund')[0]?.body).toEqual({
      guser_id: GID,
      amount: 300,
      currency: 'CON',
    });
  });

  it('Transfer Failed says why once, under its title only; Retry Transaction goes to / (spec §4 Funds)', async () => {
    transferApi({
      'POST /api/account/send-fund': () => refused(503, [{ code: 50300, message: 'Service Unavailable' }]),
    });
    const { user, router } = renderApp(`/transfer-fund?gid=${GID}&uid=12&amt=5&cur=CAD`);
    const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    expect(within(amountDialog).getByLabelText('Amount (CAD)')).toHaveProperty('value', '5');
    expect(within(amountDialog).queryByLabelText('Currency')).toBeNull();
    await user.click(within(amountDialog).getByRole('button', { name: 'Send Money Transfer' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Confirm Transfer' })).getByRole('button', {
        name: 'Complete Transfer',
      }),
    );

    const failed = await screen.findByRole('dialog', { name: 'Transfer Failed' });
    expect(within(failed).getByRole('alert').textContent).toBe('Service unavailable');
    expect(within(failed).getAllByText('Transfer Failed')).toHaveLength(1);
    expect(within(failed).queryByText('Please fix the following:')).toBeNull();
    await user.click(within(failed).getByRole('button', { name: 'Retry Transaction' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });

  it('a transfer above the available balance is stopped at the amount, in the spec words, before any confirmation', async () => {
    // No coins either: a dollar amount above the dollars could otherwise be paid from coins at a quote.
    const api = transferApi({
      'GET /api/account/balance': () =>
        ok({ balance: { ...balance, balances: [line('CON', 0), line('USD', 50_000), line('CAD', 2_000)] } }),
    });
    const { user } = renderApp(`/transfer-fund?gid=${GID}&uid=12`);
    const dialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    await waitFor(() => {
      expect(queryClient.getQueryState(walletKeys.balance())?.status).toBe('success');
    });
    await user.type(within(dialog).getByLabelText('Amount'), '25');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'CAD');
    await user.click(within(dialog).getByRole('button', { name: 'Send Money Transfer' }));
    // Under the amount, named by its aria-describedby.
    await within(dialog).findByText('Insufficient funds');
    const described = within(dialog).getByLabelText('Amount').getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described)?.textContent).toBe('Insufficient funds');
    expect(screen.queryByRole('dialog', { name: 'Confirm Transfer' })).toBeNull();
    // 20.00 CAD is all there is, and may be sent.
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '20');
    await user.click(within(dialog).getByRole('button', { name: 'Send Money Transfer' }));
    expect(await screen.findByRole('dialog', { name: 'Confirm Transfer' })).toBeTruthy();
    expect(api.sent('POST', '/api/account/send-fund')).toHaveLength(0);
  });

  it("sending to oneself says so, instead of 'User not found' alone", async () => {
    transferApi({ 'GET /api/user/recipient-lookup': () => refused(404, [{ code: 40440, message: 'User not found' }]) });
    renderApp(`/transfer-fund?gid=${sessionUser().guser_id}&uid=7`);
    const dialog = await screen.findByRole('dialog', { name: 'User not found' });
    expect(
      within(dialog).getByText('You cannot send money to yourself. Choose one of your contacts instead.'),
    ).toBeTruthy();
  });

  it('a saved contact who is not a user is told apart, with the way back to Contacts', async () => {
    transferApi();
    const { user, router } = renderApp('/transfer-fund?uid=');
    const dialog = await screen.findByRole('dialog', { name: 'User not found' });
    expect(within(dialog).getByText(/This contact does not have a Peeks Wallet account yet/)).toBeTruthy();
    await user.click(within(dialog).getByRole('link', { name: 'View Contacts' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/contacts');
    });
  });

  it('a transfer made again after leaving the page is a new attempt with a new key', async () => {
    const api = transferApi({
      'POST /api/account/send-fund': () => refused(422, [{ code: 42201, message: 'Insufficient funds' }]),
    });
    const path = `/transfer-fund?gid=${GID}&uid=12&amt=1&cur=USD`;
    const { user, router } = renderApp(path);
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Send A Money Transfer' })).getByRole('button', {
          name: 'Send Money Transfer',
        }),
      );
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Confirm Transfer' })).getByRole('button', {
          name: 'Complete Transfer',
        }),
      );
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Transfer Failed' })).getByRole('button', { name: 'Close' }),
      );
      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/');
      });
      if (attempt === 1) await router.navigate(path);
    }
    const keys = idempotencyKeys(api);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("a shop's USD QR paid from coins: the shop's name, the memo, the amount and the quote before confirming; a 409 shows a fresh quote to confirm again", async () => {
    const quote = (quoteId: string) => ({
      quote_id: quoteId,
      from_currency: 'CON',
      to_currency: 'USD',
      amount_in: 95_00,
      amount_out: 4_75,
      fee: 0,
      rate: '20',
      rate_micros: 20_000_000,
      usd_rate_micros: 1_000_000,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    let quotes = 0;
    let sends = 0;
    const api = transferApi({
      'GET /api/user/recipient-lookup': () => ok({ user: { ...marie, shop_name: 'Demo Coffee' } }),
      'GET /api/account/balance': () =>
        ok({ balance: { ...balance, balances: [line('CON', 100_00), line('USD', 0), line('CAD', 0)] } }),
      'POST /api/account/quote': () => ok({ quote: quote(`qt_${String(++quotes)}`) }),
      'POST /api/account/send-fund': () =>
        ++sends === 1
          ? refused(409, [{ code: 40930, field: 'quote_id', message: 'The quote has expired' }])
          : ok({ transaction: transaction(95_00, 'CON'), quote: quote('qt_2') }),
    });
    const { user } = renderApp(`/transfer-fund?gid=${GID}&amt=4.75&cur=USD&comment=Order%207`);
    const amountDialog = await screen.findByRole('dialog', { name: 'Send A Money Transfer' });
    expect(within(amountDialog).getByText('Demo Coffee')).toBeTruthy();
    await waitFor(() => {
      expect(queryClient.getQueryState(walletKeys.balance())?.status).toBe('success');
    });
    await user.click(within(amountDialog).getByRole('button', { name: 'Send Money Transfer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm Transfer' });
    expect(within(confirm).getByText('Demo Coffee')).toBeTruthy();
    expect(within(confirm).getByText('Order 7')).toBeTruthy();
    const line1 = await within(confirm).findByTestId('coin-quote');
    expect(line1.textContent).toMatch(
      /^\$4\.75 USD = 95\.00 Coins · 20 Coins per USD · fee \$0\.00 USD · expires in \d+ s$/,
    );
    expect(api.sent('POST', '/api/account/quote')[0]?.body).toEqual({
      from_currency: 'CON',
      to_currency: 'USD',
      amount_out: 4_75,
    });
    await user.click(within(confirm).getByRole('button', { name: 'Complete Transfer' }));
    // The quote ran out: a fresh one is shown, and nothing is paid until the person confirms again.
    const again = await screen.findByRole('dialog', { name: 'Confirm Transfer' });
    expect(await within(again).findByText(/The quote changed before you confirmed/)).toBeTruthy();
    await waitFor(() => {
      expect(quotes).toBe(2);
    });
    await user.click(within(again).getByRole('button', { name: 'Complete Transfer' }));
    const done = await screen.findByRole('dialog', { name: 'Transfer Completed' });
    expect(within(done).getByRole('status').textContent).toBe('$4.75 USD sent to Demo Coffee. Paid with 95.00 Coins.');
    const [first, second] = api.sent('POST', '/api/account/send-fund');
    expect(first?.body).toMatchObject({ amount: 4_75, currency: 'USD', comment: 'Order 7', quote_id: 'qt_1' });
    expect(second?.body).toMatchObject({ quote_id: 'qt_2' });
    // A new quote is a new request: a new key, so the server does not take it for the first one replayed.
    expect(second?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
  });
});
