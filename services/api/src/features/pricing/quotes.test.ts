import { errorCodes, errorEnvelope, purchaseResponse, quoteResponse, staleQuoteEnvelope } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { storedCard } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { QUOTE_LIFETIME_MS } from './quotes.ts';
import type { ExchangeRateSource } from './rates.ts';

let now = new Date('2030-05-01T10:00:00Z');
let cadRate = 780_000;
const rates: ExchangeRateSource = { name: 'test rates', current: () => Promise.resolve({ CAD: cadRate }) };
let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, clock: () => now, exchangeRates: rates });
});
afterAll(() => subject.close());

const QUOTE = '/api/account/quote';
const PURCHASE = '/api/account/purchase';
const quoteFor = async (who: SignedIn, body: Record<string, unknown>) => {
  const response = await who.browser.post(QUOTE, body);
  expect(response.statusCode, response.body).toBe(200);
  return quoteResponse.parse(response.json()).quote;
};
const purchase = (who: SignedIn, body: Record<string, unknown>, key?: string) =>
  who.browser.request('POST', PURCHASE, body, key === undefined ? {} : { 'idempotency-key': key });
const coinsOf = async (who: SignedIn) =>
  (await walletsOf(subject.database.db, userOwnerId(who.user.user_id))).find(
    (wallet) => wallet.walletId === walletIdOf(userOwnerId(who.user.user_id), 'CON'),
  )?.total ?? 0;
const chargesOf = async (card: number) => {
  const { type_specific } = await subject.database.db
    .selectFrom('payment_methods')
    .select('type_specific')
    .where('payment_method_id', '=', card)
    .executeTakeFirstOrThrow();
  return subject.database.db
    .selectFrom('sandbox_charges')
    .select(['amount', 'currency'])
    .where('token', '=', type_specific.token as string)
    .orderBy('created_at')
    .execute();
};

async function buyer() {
  const who = await signedUp(subject, 'personal');
  return { who, card: await storedCard(subject, who) };
}

describe('POST /api/account/quote', () => {
  it('quotes either side of a conversion at the price list, with no fee and about a minute to confirm', async () => {
    const { who } = await buyer();
    expect(await quoteFor(who, { from_currency: 'CAD', to_currency: 'CON', amount_out: 1_000_00 })).toMatchObject({
      from_currency: 'CAD',
      to_currency: 'CON',
      amount_in: 64_11,
      amount_out: 1_000_00,
      fee: 0,
      rate: '15.6',
      rate_micros: 15_600_000,
      usd_rate_micros: 780_000,
      expires_at: new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
    });
    expect(await quoteFor(who, { from_currency: 'USD', to_currency: 'CON', amount_in: 100_00 })).toMatchObject({
      amount_in: 100_00,
      amount_out: 2_000_00,
      rate: '20',
    });
    // Selling 50 coins for Canadian dollars: 50 / 15.6 = 3.205…, rounded down to $3.20.
    expect(await quoteFor(who, { from_currency: 'CON', to_currency: 'CAD', amount_in: 50_00 })).toMatchObject({
      amount_in: 50_00,
      amount_out: 3_20,
    });
  });

  it.each([
    [{ from_currency: 'USD', to_currency: 'CAD', amount_in: 100 }, 'to_currency'],
    [{ from_currency: 'CON', to_currency: 'CON', amount_in: 100 }, 'to_currency'],
    [{ from_currency: 'USD', to_currency: 'CON' }, 'amount_in'],
    [{ from_currency: 'USD', to_currency: 'CON', amount_in: 100, amount_out: 2_000 }, 'amount_in'],
    [{ from_currency: 'EUR', to_currency: 'CON', amount_in: 100 }, 'from_currency'],
    [{ from_currency: 'USD', to_currency: 'CON', amount_in: -5 }, 'amount_in'],
    [{ from_currency: 'USD', to_currency: 'CON', amount_out: 150 }, 'amount_out'],
    [{ from_currency: 'USD', to_currency: 'CON', amount_in: 4 }, 'amount_in'],
  ])('refuses %j under %s', async (body, field) => {
    const { who } = await buyer();
    const response = await who.browser.post(QUOTE, body);
    expectRefusal(response, 400, undefined, JSON.stringify(body));
    expect(errorEnvelope.parse(response.json()).errors.map((problem) => problem.field)).toContain(field);
  });

  it('keeps the history of the rates it priced with, and a quote keeps its price when the rate changes', async () => {
    const { who, card } = await buyer();
    const before = await quoteFor(who, { from_currency: 'CAD', to_currency: 'CON', amount_out: 100_00 });
    cadRate = 800_000;
    try {
      const after = await quoteFor(who, { from_currency: 'CAD', to_currency: 'CON', amount_out: 100_00 });
      expect([before.amount_in, after.amount_in]).toEqual([6_42, 6_25]);
      const rows = await subject.database.db
        .selectFrom('quotes')
        .innerJoin('exchange_rates', 'exchange_rates.rate_id', 'quotes.rate_id')
        .select(['quotes.quote_id', 'exchange_rates.rate_micros', 'exchange_rates.source'])
        .where('quotes.quote_id', 'in', [before.quote_id, after.quote_id])
        .orderBy('quotes.created_at')
        .orderBy('exchange_rates.rate_id')
        .execute();
      expect(rows.map((row) => [row.quote_id, row.rate_micros, row.source])).toEqual([
        [before.quote_id, 780_000, 'test rates'],
        [after.quote_id, 800_000, 'test rates'],
      ]);
      // The person confirmed the first quote: they pay what they saw.
      const bought = await purchase(who, {
        payment_method_id: card,
        coin_amt: 100_00,
        currency: 'CAD',
        quote_id: before.quote_id,
      });
      expect(bought.statusCode, bought.body).toBe(200);
      expect(purchaseResponse.parse(bought.json()).funding.amount).toBe(6_42);
    } finally {
      cadRate = 780_000;
    }
  });
});

describe('a purchase at a quote', () => {
  it('charges exactly the quote, once, and a retry with the same Idempotency-Key answers the same', async () => {
    const { who, card } = await buyer();
    const quote = await quoteFor(who, { from_currency: 'CAD', to_currency: 'CON', amount_out: 1_000_00 });
    const body = { payment_method_id: card, coin_amt: 1_000_00, currency: 'CAD', quote_id: quote.quote_id };
    const first = await purchase(who, body, 'buy-at-quote');
    const again = await purchase(who, body, 'buy-at-quote');
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    const [one, two] = [purchaseResponse.parse(first.json()), purchaseResponse.parse(again.json())];
    expect(one.quote).toEqual(quote);
    expect(two).toEqual(one);
    expect(one.funding).toEqual({ amount: 64_11, currency: 'CAD', label: 'Visa •••• 4242' });
    expect(await chargesOf(card)).toEqual([{ amount: 64_11, currency: 'CAD' }]);
    expect(await coinsOf(who)).toBe(1_000_00);
    // The history row names the card and the quote, from the purchase's event.
    expect(one.transaction.funding).toEqual({ amount: 64_11, currency: 'CAD', label: 'Visa •••• 4242' });
    expect(one.transaction.quote).toMatchObject({ quote_id: quote.quote_id, amount_in: 64_11, amount_out: 1_000_00 });
  });

  it('answers an expired quote 409 with a fresh one, and charges nothing', async () => {
    const { who, card } = await buyer();
    const quote = await quoteFor(who, { from_currency: 'USD', to_currency: 'CON', amount_out: 100_00 });
    now = new Date(now.getTime() + QUOTE_LIFETIME_MS);
    const response = await purchase(who, {
      payment_method_id: card,
      coin_amt: 100_00,
      currency: 'USD',
      quote_id: quote.quote_id,
    });
    expectRefusal(response, 409, errorCodes.quoteExpired, 'expired quote');
    const fresh = staleQuoteEnvelope.parse(response.json()).quote;
    expect(fresh).toMatchObject({ from_currency: 'USD', to_currency: 'CON', amount_in: 5_00, amount_out: 100_00 });
    expect(fresh.quote_id).not.toBe(quote.quote_id);
    expect(Date.parse(fresh.expires_at)).toBe(now.getTime() + QUOTE_LIFETIME_MS);
    expect(await chargesOf(card)).toEqual([]);
    expect(await coinsOf(who)).toBe(0);

    const confirmed = await purchase(who, {
      payment_method_id: card,
      coin_amt: 100_00,
      currency: 'USD',
      quote_id: fresh.quote_id,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await coinsOf(who)).toBe(100_00);
  });

  it("answers someone else's quote, a used one and one for other coins 409 with a fresh quote, charging nothing", async () => {
    const ann = await buyer();
    const bob = await buyer();
    const annQuote = await quoteFor(ann.who, { from_currency: 'USD', to_currency: 'CON', amount_out: 100_00 });
    const foreign = await purchase(bob.who, {
      payment_method_id: bob.card,
      coin_amt: 100_00,
      currency: 'USD',
      quote_id: annQuote.quote_id,
    });
    expectRefusal(foreign, 409, errorCodes.quoteUnusable, "Ann's quote used by Bob");
    expect(staleQuoteEnvelope.parse(foreign.json()).quote.quote_id).not.toBe(annQuote.quote_id);

    const otherCoins = await purchase(ann.who, {
      payment_method_id: ann.card,
      coin_amt: 200_00,
      currency: 'USD',
      quote_id: annQuote.quote_id,
    });
    expectRefusal(otherCoins, 409, errorCodes.quoteUnusable, 'a quote for other coins');
    expect(staleQuoteEnvelope.parse(otherCoins.json()).quote).toMatchObject({ amount_out: 200_00, amount_in: 10_00 });

    const body = { payment_method_id: ann.card, coin_amt: 100_00, currency: 'USD', quote_id: annQuote.quote_id };
    expect((await purchase(ann.who, body)).statusCode).toBe(200);
    expectRefusal(await purchase(ann.who, body), 409, errorCodes.quoteUnusable, 'the quote used again');
    expect(await chargesOf(bob.card)).toEqual([]);
    expect(await chargesOf(ann.card)).toEqual([{ amount: 5_00, currency: 'USD' }]);
    expect([await coinsOf(ann.who), await coinsOf(bob.who)]).toEqual([100_00, 0]);
  });

  it('lets one of several concurrent purchases with different keys use a quote: one charge, the rest 409', async () => {
    const { who, card } = await buyer();
    const quote = await quoteFor(who, { from_currency: 'USD', to_currency: 'CON', amount_out: 300_00 });
    const body = { payment_method_id: card, coin_amt: 300_00, currency: 'USD', quote_id: quote.quote_id };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => purchase(who, body, `race-${index}`)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await chargesOf(card)).toEqual([{ amount: 15_00, currency: 'USD' }]);
    expect(await coinsOf(who)).toBe(300_00);
  });

  it('without a quote, prices at the current rate and states the quote it used', async () => {
    const { who, card } = await buyer();
    const response = await purchase(who, { payment_method_id: card, coin_amt: 1_000_00, currency: 'CAD' });
    expect(response.statusCode, response.body).toBe(200);
    const { quote, funding, transaction } = purchaseResponse.parse(response.json());
    expect(quote).toMatchObject({ from_currency: 'CAD', amount_in: 64_11, amount_out: 1_000_00, rate: '15.6', fee: 0 });
    expect(funding).toEqual({ amount: 64_11, currency: 'CAD', label: 'Visa •••• 4242' });
    const stored = await subject.database.db
      .selectFrom('quotes')
      .select(['tx_id', 'user_id'])
      .where('quote_id', '=', quote.quote_id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ tx_id: transaction.tx_id, user_id: who.user.user_id });
  });
});

describe('the ledger after conversions', () => {
  it('balances each currency on its own through the exchange accounts, and verifies', async () => {
    const { who, card } = await buyer();
    const response = await purchase(who, { payment_method_id: card, coin_amt: 1_000_00, currency: 'CAD' });
    const { transaction } = purchaseResponse.parse(response.json());
    const legs = await subject.database.db
      .selectFrom('ledger_entries')
      .select(['account_id', 'currency', 'debit_credit', 'amount'])
      .where('tx_id', '=', transaction.tx_id)
      .orderBy('currency')
      .orderBy('account_id')
      .execute();
    expect(legs.map((leg) => [leg.account_id, leg.currency, leg.debit_credit, leg.amount])).toEqual([
      ['platform:card-funding:CAD', 'CAD', 'D', 64_11],
      ['platform:exchange:CAD', 'CAD', 'C', 64_11],
      ['platform:exchange:CON', 'CON', 'D', 1_000_00],
      [`wallet:${userOwnerId(who.user.user_id)}:CON`, 'CON', 'C', 1_000_00],
    ]);
    const unbalanced = await sql<{ tx_id: string; currency: string }>`
      SELECT tx_id, currency FROM ledger_entries
      GROUP BY tx_id, currency
      HAVING sum(CASE debit_credit WHEN 'C' THEN amount ELSE -amount END) <> 0
    `.execute(subject.database.db);
    expect(unbalanced.rows).toEqual([]);
    const report = await verifyLedger(subject.database.db);
    expect({ differences: report.differences, invariantFailures: report.invariantFailures }).toEqual({
      differences: [],
      invariantFailures: [],
    });
  });
});
