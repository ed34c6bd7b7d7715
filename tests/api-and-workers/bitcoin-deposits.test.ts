import { bitcoinDepositsResponse, bitcoinQuote, depositCoinsResponse, errorCodes } from '@peeks/contracts';
import { createLogger, readConfig } from '@peeks/runtime';
import { startWorkers, type Workers } from '@peeks/worker';
import { startFakeEsplora, type FakeEsplora } from '@peeks/worker/testing';
import {
  createTestApp,
  expectRefusal,
  signedUp,
  signedUpOperator,
  testAppOptions,
  type SignedIn,
  type TestApp,
} from '@peeks/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LIST = '/api/operations/bitcoin-deposits';
let subject: TestApp;
let esplora: FakeEsplora;
let workers: Workers;
let operator: SignedIn;

/** The app and a worker watching a fake Esplora, as `npm start` runs them with BITCOIN_ESPLORA_URL set. */
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  esplora = await startFakeEsplora();
  workers = await startWorkers({
    databaseUrl: subject.database.url,
    db: subject.database.db,
    log: createLogger({ LOG_LEVEL: 'silent' }),
    config: readConfig({ BITCOIN_ESPLORA_URL: esplora.url, BITCOIN_CONFIRMATIONS: '1', BITCOIN_POLL_SECONDS: '1' }),
  });
  operator = await signedUpOperator(subject);
});
afterAll(async () => {
  await workers.stop();
  await esplora.close();
  await subject.close();
});

/** A bitcoin deposit made through the Deposit dialog's two calls. */
async function bitcoinDeposit(who: SignedIn, amount: number) {
  const quote = bitcoinQuote.parse((await who.browser.post('/api/account/get-bitcoin-info', { amount })).json());
  const response = await who.browser.post('/api/account/deposit-coins', { ...quote, paymentMethodId: 'CRYPTO:BTC' });
  expect(response.statusCode, response.body).toBe(200);
  return depositCoinsResponse.parse(response.json());
}

const list = async (query = '') => {
  const response = await operator.browser.get(`${LIST}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bitcoinDepositsResponse.parse(response.json());
};

describe('GET /api/operations/bitcoin-deposits', () => {
  it('shows the operator a flagged overpayment with its reason, and the exact payment cleared', async () => {
    const ann = await signedUp(subject, 'personal');
    const over = await bitcoinDeposit(ann, 20);
    const exact = await bitcoinDeposit(ann, 30);
    esplora.pay(over.recipientIdentifier, over.expectedAmount + 1_000);
    esplora.pay(exact.recipientIdentifier, exact.expectedAmount);
    esplora.mine();

    await expect
      .poll(async () => (await list('?state=flagged')).deposits.map((deposit) => deposit.tx_id), {
        timeout: 20_000,
        interval: 200,
      })
      .toEqual([over.futurePaymentId]);
    const {
      deposits: [flagged],
      total,
    } = await list('?state=flagged');
    expect(total).toBe(1);
    expect(flagged).toMatchObject({
      state: 'flagged',
      ledger_state: 'pending',
      address: over.recipientIdentifier,
      amount_sats: over.expectedAmount,
      received_sats: over.expectedAmount + 1_000,
      confirmed_sats: over.expectedAmount + 1_000,
      usd_cents: 20_00,
      user_id: ann.user.user_id,
      username: ann.user.username,
      flag: 'overpaid',
      flag_reason: `${String(over.expectedAmount + 1_000)} sats confirmed, 1000 more than the ${String(over.expectedAmount)} due`,
      flagged_at: expect.any(String) as string,
      expires_at: over.expiresAt,
    });
    expect(flagged?.payment_txids).toHaveLength(1);

    await expect
      .poll(
        async () =>
          (await list(`?state=cleared&user_id=${String(ann.user.user_id)}`)).deposits.map((deposit) => deposit.tx_id),
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([exact.futurePaymentId]);
    expect(
      (await list(`?user_id=${String(ann.user.user_id)}`)).deposits.map((deposit) => [
        deposit.tx_id,
        deposit.state,
        deposit.ledger_state,
      ]),
    ).toEqual([
      [over.futurePaymentId, 'flagged', 'pending'],
      [exact.futurePaymentId, 'cleared', 'completed'],
    ]);
  });

  it('lists pending deposits with nothing received', async () => {
    const bob = await signedUp(subject, 'personal');
    const waiting = await bitcoinDeposit(bob, 5);
    expect((await list(`?state=pending&user_id=${String(bob.user.user_id)}`)).deposits).toMatchObject([
      {
        tx_id: waiting.futurePaymentId,
        state: 'pending',
        received_sats: 0,
        flag: null,
        flag_reason: null,
        seen_at: null,
      },
    ]);
  });

  it('is for finance operators only: 401 signed out, 403 for everyone else', async () => {
    const stranger = await subject.browser();
    expectRefusal(await stranger.get(LIST), 401, errorCodes.notSignedIn, 'signed out');
    for (const caller of ['personal', 'business'] as const) {
      const user = await signedUp(subject, caller);
      expectRefusal(await user.browser.get(`${LIST}?state=flagged`), 403, errorCodes.financeOperatorOnly, caller);
    }
  });

  it("refuses a state that is not one of the watcher's", async () => {
    expectRefusal(await operator.browser.get(`${LIST}?state=lost`), 400, undefined, 'bad state');
  });
});
