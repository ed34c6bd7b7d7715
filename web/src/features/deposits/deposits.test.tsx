import type { Currency, DepositSummary } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeLiveSocket, fakeApi, ok, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';
import { quoteApi, quoteFor as priceListQuote, staleQuote } from '../../testing/quotes.ts';
import { transactionView } from '../../testing/transactions.ts';
import { readBitcoinUri } from './deposit-rules.ts';

const ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const balance = { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] };

function transaction(txId: string, amount: number, currency: Currency) {
  return transactionView({
    tx_id: txId,
    entry_date: '2026-11-25 18:00:00',
    state: 'pending',
    type: 'DEP_IAP',
    tx_class: 'DEPOSIT',
    debit_credit: 'C',
    amount,
    currency,
  });
}

const emailDeposit = (method: 'interac' | 'zelle', amount: number) => ({
  tx_id: `tx-${method}`,
  method,
  reference: 'PKS-AB12-CD34',
  recipient: { name: 'Peeks Wallet', email: `${method}@peeks-wallet.example` },
  security_question: method === 'interac' ? 'What is your Peeks deposit code?' : null,
  security_answer: method === 'interac' ? 'K7QM2XPA' : null,
  amount: amount * 100,
  currency: method === 'interac' ? 'CAD' : 'USD',
  rate_micros: 780_000,
  coin_estimate: Math.floor(20 * amount * 0.78) * 100,
  entry_date: '2026-11-25 18:00:00',
});

const summary = (overrides: Partial<DepositSummary> = {}): DepositSummary => ({
  tx_id: 'tx-btc',
  method: 'bitcoin',
  status: 'waiting',
  amount: 25_00,
  currency: 'USD',
  coins: 390_00,
  reference: ADDRESS,
  created_at: '2026-11-25T18:00:00.000Z',
  expires_at: '2026-11-26T18:00:00.000Z',
  bitcoin: { address: ADDRESS, amount_sats: 50_000, received_sats: 0, confirmations: null, flag: null },
  ...overrides,
});

/** The quote the server answers a deposit with: what the cash buys at the price list's rate. */
const quoteFor = (currency: 'USD' | 'CAD', cents: number) => {
  const usd = currency === 'USD' ? 1_000_000 : 780_000;
  return {
    quote_id: `quote-${currency}-${String(cents)}`,
    from_currency: currency,
    to_currency: 'CON' as const,
    amount_in: cents,
    amount_out: Math.floor((cents * 20 * usd) / 1_000_000),
    fee: 0,
    rate: currency === 'USD' ? '20' : '15.6',
    rate_micros: 20 * usd,
    usd_rate_micros: usd,
    expires_at: '2026-11-25T18:01:00.000Z',
  };
};

function depositApi(handlers: Record<string, Handler> = {}) {
  const quotes = quoteApi();
  const api = fakeApi({
    'POST /api/account/quote': quotes.handler,
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }),
    'GET /api/account/balance': () => ok({ balance }),
    'POST /api/account/deposit-interac': (body) => {
      const { amount } = body as { amount: number };
      const deposit = emailDeposit('interac', amount);
      return ok({
        answer: deposit.security_answer,
        forexRate: 780_000,
        user: { userId: 7 },
        deposit,
        transaction: transaction(deposit.tx_id, deposit.amount, 'CAD'),
        quote: quoteFor('CAD', deposit.amount),
      });
    },
    'POST /api/account/deposit-zell': (body) => {
      const { amount } = body as { amount: number };
      const deposit = emailDeposit('zelle', amount);
      return ok({
        forexRate: 780_000,
        memo: deposit.reference,
        zelleRecipient: deposit.recipient,
        deposit,
        transaction: transaction(deposit.tx_id, deposit.amount, 'USD'),
        quote: quoteFor('USD', deposit.amount),
      });
    },
    'POST /api/account/get-bitcoin-info': (body) => {
      const { amount } = body as { amount: number };
      return ok({
        peeksCoins: 20 * amount * 100,
        BTCtoUSD: 5_000_000,
        totalBitcoinAmount: amount * 2_000,
        USDAmount: amount * 100,
        hash: `1764093600000.${'a'.repeat(43)}`,
        expiresAt: '2026-11-25T18:15:00.000Z',
      });
    },
    'POST /api/account/deposit-coins': (body) => {
      const { totalBitcoinAmount, USDAmount } = body as { totalBitcoinAmount: number; USDAmount: number };
      return ok({
        recipientIdentifier: ADDRESS,
        availableBalance: 0,
        futurePaymentId: 'tx-btc',
        expectedAmountCents: USDAmount,
        expectedAmount: totalBitcoinAmount,
        qrCode: `bitcoin:${ADDRESS}?amount=0.00050000`,
        expiresAt: new Date(Date.now() + 24 * 3_600_000).toISOString(),
        transaction: transaction('tx-btc', USDAmount, 'USD'),
        quote: quoteFor('USD', USDAmount),
      });
    },
    'GET /api/account/deposits': () => ok({ deposits: [summary()] }),
    ...handlers,
  });
  return { ...api, quotes };
}

const openDeposit = async () => {
  const { user, router } = renderApp('/');
  const card = await screen.findByRole('region', { name: 'Your wallet' });
  await user.click(within(card).getByRole('link', { name: 'Add money' }));
  return { user, router, dialog: await screen.findByRole('dialog', { name: 'Deposit Funds' }) };
};

describe('the Deposit dialog (spec §2 Deposit dialog and deposit sub-modals)', () => {
  beforeEach(resetSession);

  it("opens from the card's Add Funds with the three methods and the user's avatar, name and location", async () => {
    depositApi();
    const { dialog, user, router } = await openDeposit();
    expect(within(dialog).getByText('Anne Tremblay')).toBeTruthy();
    expect(within(dialog).getByText('Ottawa, CA')).toBeTruthy();
    for (const name of ['INTERAC EMT', 'ZELL PAY', 'BITCOIN DEPOSIT'])
      expect(within(dialog).getByRole('button', { name })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(router.state.location.search).toBe('');
  });

  it('Interac: the coin equivalent as typed, the amount rules, then recipient, e-mail, question, answer and memo with Copy; Complete Transfer reopens the main modal', async () => {
    const api = depositApi();
    const { dialog, user } = await openDeposit();
    await user.click(within(dialog).getByRole('button', { name: 'INTERAC EMT' }));
    const form = await screen.findByRole('dialog', { name: 'Email Money Transfer' });
    expect(within(form).getByText('Enter an amount to see the quote.')).toBeTruthy();
    expect(within(form).getByText('Your deposit should complete within 60 minutes of your transfer.')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(await within(form).findAllByText('Please enter amount')).not.toHaveLength(0);
    await user.type(within(form).getByLabelText('Amount'), '501');
    expect(await within(form).findAllByText('Please enter amount should be less than 500')).not.toHaveLength(0);
    await user.clear(within(form).getByLabelText('Amount'));
    await user.type(within(form).getByLabelText('Amount'), '1');
    expect((await within(form).findByTestId('quote-get')).textContent).toBe('15.60 Coins');
    await user.type(within(form).getByLabelText('Amount'), '0');
    await waitFor(() => {
      expect(within(form).getByTestId('quote-get').textContent).toBe('156.00 Coins');
    });
    expect(within(form).getByTestId('quote-pay').textContent).toBe('$10.00 CAD');
    expect(within(form).getByText('1 CAD = 15.6 Coins')).toBeTruthy();
    expect(within(form).getByText('$0.00 CAD'), 'the fee, shown as such').toBeTruthy();
    expect(api.sent('POST', '/api/account/deposit-interac'), 'nothing started before Continue').toHaveLength(0);
    const shown = api.quotes.last()?.quote_id;
    await user.click(within(form).getByRole('button', { name: 'Continue' }));

    const steps = await screen.findByRole('dialog', { name: 'Email Money Transfer' });
    await within(steps).findByLabelText('Security Answer');
    expect(api.sent('POST', '/api/account/deposit-interac').map((call) => call.body)).toEqual([
      { amount: 10, quote_id: shown },
    ]);
    expect(api.sent('POST', '/api/account/deposit-interac')[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const read = (label: string) => within(steps).getByLabelText<HTMLInputElement>(label).value;
    expect(read('Recipient Name')).toBe('Peeks Wallet');
    expect(read('Recipient E-mail')).toBe('interac@peeks-wallet.example');
    expect(read('Security Question')).toBe('What is your Peeks deposit code?');
    expect(read('Security Answer')).toBe('K7QM2XPA');
    expect(read('Memo')).toBe('PKS-AB12-CD34');
    for (const what of ['Recipient Name', 'Recipient E-mail', 'Security Question', 'Security Answer', 'Memo'])
      expect(within(steps).getByRole('button', { name: `Copy ${what}` })).toBeTruthy();
    expect(within(steps).getByText('Wait for Transfer.')).toBeTruthy();
    expect(within(steps).getByTestId('deposit-coins').textContent).toBe('156.00 Coins');
    // A Canadian user gets Canadian banks.
    expect(within(steps).getByRole('link', { name: 'RBC Royal Bank' })).toBeTruthy();

    await user.click(within(steps).getByRole('button', { name: 'Copy Memo' }));
    expect(await navigator.clipboard.readText()).toBe('PKS-AB12-CD34');
    expect(await screen.findByText('Copied')).toBeTruthy();

    await user.click(within(steps).getByRole('button', { name: 'Complete Transfer' }));
    expect(await screen.findByRole('dialog', { name: 'Deposit Funds' })).toBeTruthy();
  });

  it('Zelle: the memo with Copy and the 60-minute text, no security question', async () => {
    depositApi({ 'GET /api/session': () => ok({ user: sessionUser({ country: 'US' }), csrfToken: 'csrf' }) });
    const { dialog, user } = await openDeposit();
    await user.click(within(dialog).getByRole('button', { name: 'ZELL PAY' }));
    const form = await screen.findByRole('dialog', { name: 'Zelle' });
    await user.type(within(form).getByLabelText('Amount'), '2');
    expect((await within(form).findByTestId('quote-get')).textContent, 'US dollars buy 20 coins each').toBe(
      '40.00 Coins',
    );
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    const steps = await screen.findByRole('dialog', { name: 'Zelle' });
    expect((await within(steps).findByLabelText<HTMLInputElement>('Memo')).value).toBe('PKS-AB12-CD34');
    expect(within(steps).queryByLabelText('Security Answer')).toBeNull();
    expect(within(steps).getByText('Your deposit should complete within 60 minutes of your transfer.')).toBeTruthy();
    await user.click(within(steps).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Deposit Funds' })).toBeTruthy();
  });

  it('Bitcoin: the rate, cost in BTC and USD and coins, then the QR of the BIP21 URI, the address with Copy, the total due and a live countdown', async () => {
    const api = depositApi();
    const { dialog, user } = await openDeposit();
    await user.click(within(dialog).getByRole('button', { name: 'BITCOIN DEPOSIT' }));
    const step1 = await screen.findByRole('dialog', { name: 'Bitcoin Deposit' });
    await user.type(within(step1).getByLabelText('Amount'), '25');
    expect(await within(step1).findByText('1 BTC = $50,000.00 USD')).toBeTruthy();
    expect(within(step1).getByText('0.00050000 BTC')).toBeTruthy();
    expect((await within(step1).findByTestId('quote-pay')).textContent).toBe('$25.00 USD');
    expect(within(step1).getByTestId('quote-get').textContent).toBe('500.00 Coins');
    const shown = api.quotes.last()?.quote_id;
    await user.click(within(step1).getByRole('button', { name: 'Proceed with Purchase' }));

    const step2 = await screen.findByRole('dialog', { name: 'Send Bitcoin' });
    expect(api.sent('POST', '/api/account/deposit-coins')[0]?.body).toMatchObject({
      paymentMethodId: 'CRYPTO:BTC',
      totalBitcoinAmount: 50_000,
      quote_id: shown,
    });
    expect(api.sent('POST', '/api/account/quote').at(-1)?.body).toEqual({
      from_currency: 'USD',
      to_currency: 'CON',
      amount_in: 2_500,
    });
    await waitFor(() => {
      expect(within(step2).getByRole('img', { name: 'QR code of the bitcoin payment' }).getAttribute('src')).toMatch(
        /^data:image\/svg\+xml/,
      );
    });
    const image = within(step2).getByRole('img', { name: 'QR code of the bitcoin payment' });
    expect(image.getAttribute('width')).toBe('150');
    expect(readBitcoinUri(image.getAttribute('data-qr-text') ?? '')).toEqual({ address: ADDRESS, sats: 50_000 });
    expect(within(step2).getByLabelText<HTMLInputElement>('Receiving address').value).toBe(ADDRESS);
    expect(within(step2).getByText('0.00050000 BTC')).toBeTruthy();
    expect(within(step2).getByText('This address expires in 24 hours.')).toBeTruthy();
    expect(within(step2).getByRole('timer').textContent).toMatch(/^Time left: 2[34]:\d\d:\d\d$/);

    await user.click(within(step2).getByRole('button', { name: 'View Pending Bitcoin Transfer' }));
    expect(await screen.findByRole('dialog', { name: 'Pending Deposits' })).toBeTruthy();
  });

  it('the pending view lists the deposits and follows each over the live feed: seen, confirmations, cleared', async () => {
    depositApi({
      'GET /api/account/deposits': () =>
        ok({
          deposits: [
            summary(),
            summary({
              tx_id: 'tx-interac',
              method: 'interac',
              currency: 'CAD',
              amount: 50_00,
              coins: 780_00,
              reference: 'PKS-AB12-CD34',
              expires_at: null,
              bitcoin: null,
              created_at: '2026-11-25T17:00:00.000Z',
            }),
          ],
        }),
    });
    const { user } = renderApp('/?deposit=pending');
    const view = await screen.findByRole('dialog', { name: 'Pending Deposits' });
    const row = async (txId: string) => within(view).findByTestId(`deposit-${txId}`);
    expect(within(await row('tx-btc')).getByText('Waiting for transfer')).toBeTruthy();
    expect(within(await row('tx-interac')).getByText('PKS-AB12-CD34')).toBeTruthy();
    expect(within(await row('tx-interac')).getByText('780 Coins')).toBeTruthy();

    const news = (deposit: DepositSummary) => {
      FakeLiveSocket.push({ type: 'deposit', deposit });
    };
    const bitcoin = summary().bitcoin;
    if (!bitcoin) throw new Error('a bitcoin summary has its bitcoin part');
    news(summary({ status: 'seen', bitcoin: { ...bitcoin, received_sats: 50_000, confirmations: 0 } }));
    expect(await within(await row('tx-btc')).findByText('Payment seen')).toBeTruthy();
    news(summary({ status: 'confirming', bitcoin: { ...bitcoin, received_sats: 50_000, confirmations: 1 } }));
    expect(await within(await row('tx-btc')).findByText('1 confirmation')).toBeTruthy();
    news(summary({ status: 'confirming', bitcoin: { ...bitcoin, received_sats: 50_000, confirmations: 2 } }));
    expect(await within(await row('tx-btc')).findByText('2 confirmations')).toBeTruthy();
    news(summary({ status: 'cleared' }));
    expect(await within(await row('tx-btc')).findByText('Cleared')).toBeTruthy();
    news(summary({ tx_id: 'tx-interac', method: 'interac', status: 'rejected', bitcoin: null }));
    expect(await within(await row('tx-interac')).findByText('Rejected')).toBeTruthy();
    for (const [status, text] of [
      ['expired', 'Expired'],
      ['flagged', 'Flagged for review'],
    ] as const) {
      news(summary({ status }));
      expect(await within(await row('tx-btc')).findByText(text)).toBeTruthy();
    }
    expect(within(view).getAllByRole('row')).toHaveLength(3);

    await user.click(within(view).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Deposit Funds' })).toBeTruthy();
  });

  it("says 'No records found' when there are no deposits", async () => {
    depositApi({ 'GET /api/account/deposits': () => ok({ deposits: [] }) });
    renderApp('/?deposit=pending');
    const view = await screen.findByRole('dialog', { name: 'Pending Deposits' });
    expect(await within(view).findByText('No records found')).toBeTruthy();
  });
});

describe('the deposit dialogs quote before they start (issue 35)', () => {
  beforeEach(resetSession);

  it('Interac: an expired quote (409) shows the fresh quote and asks again; Continue then names it', async () => {
    const fresh = priceListQuote({ from_currency: 'CAD', to_currency: 'CON', amount_in: 1_000 }, 90, {
      amount_out: 15_000,
    });
    let first = true;
    const api = depositApi();
    const interac = api.handlers['POST /api/account/deposit-interac'];
    api.handlers['POST /api/account/deposit-interac'] = (body, url) => {
      if (!first) return interac?.(body, url) ?? ok();
      first = false;
      return staleQuote(fresh);
    };
    const { dialog, user } = await openDeposit();
    await user.click(within(dialog).getByRole('button', { name: 'INTERAC EMT' }));
    const form = await screen.findByRole('dialog', { name: 'Email Money Transfer' });
    await user.type(within(form).getByLabelText('Amount'), '10');
    await within(form).findByTestId('quote-get');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(await within(form).findByText('The quote changed. Check the new one and confirm again.')).toBeTruthy();
    expect(within(form).getByTestId('quote-get').textContent).toBe('150.00 Coins');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    const steps = await screen.findByRole('dialog', { name: 'Email Money Transfer' });
    await within(steps).findByLabelText('Security Answer');
    const [stale, confirmed] = api.sent('POST', '/api/account/deposit-interac');
    expect(stale?.body).toEqual({ amount: 10, quote_id: 'qt_1' });
    expect(confirmed?.body).toEqual({ amount: 10, quote_id: 'qt_90' });
  });

  it('Bitcoin: an expired coin quote (409) shows the fresh one; Proceed then names it', async () => {
    let first = true;
    const api = depositApi();
    const start = api.handlers['POST /api/account/deposit-coins'];
    api.handlers['POST /api/account/deposit-coins'] = (body, url) => {
      if (!first) return start?.(body, url) ?? ok();
      first = false;
      return staleQuote(priceListQuote({ from_currency: 'USD', to_currency: 'CON', amount_in: 2_500 }, 91));
    };
    const { dialog, user } = await openDeposit();
    await user.click(within(dialog).getByRole('button', { name: 'BITCOIN DEPOSIT' }));
    const step1 = await screen.findByRole('dialog', { name: 'Bitcoin Deposit' });
    await user.type(within(step1).getByLabelText('Amount'), '25');
    await within(step1).findByTestId('quote-get');
    await user.click(within(step1).getByRole('button', { name: 'Proceed with Purchase' }));
    expect(await within(step1).findByText('The quote changed. Check the new one and confirm again.')).toBeTruthy();
    await user.click(within(step1).getByRole('button', { name: 'Proceed with Purchase' }));
    await screen.findByRole('dialog', { name: 'Send Bitcoin' });
    expect(
      api.sent('POST', '/api/account/deposit-coins').map((call) => (call.body as { quote_id: string }).quote_id),
    ).toEqual(['qt_1', 'qt_91']);
  });
});
