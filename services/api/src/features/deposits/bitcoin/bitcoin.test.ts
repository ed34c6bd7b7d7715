import * as ecc from '@bitcoinerlab/secp256k1';
import {
  bitcoinInfoResponse,
  bitcoinQuote,
  depositCoinsResponse,
  errorCodes,
  type BitcoinQuote,
} from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { closeWallet, executeLedgerCommand, walletsOf } from '@peeks/ledger-store';
import { BIP32Factory } from 'bip32';
import { address, networks, payments } from 'bitcoinjs-lib';
import bs58check from 'bs58check';
import { jobId } from '@peeks/jobs';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../../testing/money.ts';
import { createTestApp, type TestApp } from '../../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../../testing/merchants.ts';
import { expectRefusal } from '../../../testing/requests.ts';
import { amountCases } from '../../../testing/amount-cases.ts';
import { DepositAddresses } from './hd-wallet.ts';
import { fixedBitcoinPrice } from './price.ts';

const INFO = '/api/account/get-bitcoin-info';
const DEPOSIT = '/api/account/deposit-coins';
const HOUR = 60 * 60_000;

let now = new Date('2030-05-01T10:00:00Z');
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    clock: () => now,
    deposits: {
      recipients: { interac: 'i@deposits.example', zelle: 'z@deposits.example' },
      bitcoin: { network: 'testnet', price: fixedBitcoinPrice(5_000_000) },
    },
  });
});
afterAll(() => subject.close());

const quoteFor = async (who: SignedIn, amount: number) => {
  const response = await who.browser.post(INFO, { amount });
  expect(response.statusCode, response.body).toBe(200);
  return bitcoinQuote.parse(response.json());
};
const depositCoins = (who: SignedIn, quote: BitcoinQuote, key?: string) =>
  who.browser.request(
    'POST',
    DEPOSIT,
    { ...quote, paymentMethodId: 'CRYPTO:BTC' },
    key === undefined ? {} : { 'idempotency-key': key },
  );
const depositsOf = (who: SignedIn) =>
  subject.database.db
    .selectFrom('bitcoin_deposits')
    .selectAll()
    .where('user_id', '=', who.user.user_id)
    .orderBy('derivation_index')
    .execute();
const conWallet = async (who: SignedIn) => {
  const owner = userOwnerId(who.user.user_id);
  return (await walletsOf(subject.database.db, owner)).find((wallet) => wallet.walletId === walletIdOf(owner, 'CON'));
};
const testnetAddress = (candidate: string) => {
  address.toOutputScript(candidate, networks.testnet);
  return candidate;
};
const storedKey = () => subject.database.db.selectFrom('bitcoin_keys').selectAll().execute();

describe('POST /api/account/get-bitcoin-info', () => {
  it('quotes the rate, the bitcoin due in satoshis, the coins and a hash valid for 15 minutes', async () => {
    const ann = await signedUp(subject, 'personal');
    const response = await ann.browser.post(INFO, { amount: 250 });
    expect(response.statusCode, response.body).toBe(200);
    const quote = bitcoinInfoResponse.parse(response.json());
    // $250 at $50,000 a bitcoin is 0.005 BTC; at 20 coins a US dollar, 5000 coins.
    expect(quote).toMatchObject({
      USDAmount: 25_000,
      BTCtoUSD: 5_000_000,
      totalBitcoinAmount: 500_000,
      peeksCoins: 500_000,
    });
    expect(quote.hash).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(quote.expiresAt).toBe(new Date(now.getTime() + 15 * 60_000).toISOString());
    expect(bitcoinInfoResponse.parse((await ann.browser.post(INFO, { amount: 3 })).json())).toMatchObject({
      totalBitcoinAmount: 6_000,
      peeksCoins: 6_000,
    });
  });

  it.each(amountCases)('answers amount $body.amount with "$message"', async ({ body, message, code }) => {
    const ann = await signedUp(subject, 'personal');
    const response = await ann.browser.post(INFO, body);
    expectRefusal(response, 400, code, JSON.stringify(body));
    expect(response.json()).toMatchObject({ errors: [{ field: 'amount', message, code }] });
  });
});

describe('POST /api/account/deposit-coins', () => {
  it('gives a fresh testnet address, the BIP21 payload and a 24-hour pending deposit, and credits nothing', async () => {
    const ann = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(ann.user.user_id), 4_321);
    const quote = await quoteFor(ann, 250);
    const response = await depositCoins(ann, quote);
    expect(response.statusCode, response.body).toBe(200);
    const result = depositCoinsResponse.parse(response.json());
    expect(testnetAddress(result.recipientIdentifier)).toMatch(/^tb1q/);
    expect(() => address.toOutputScript(result.recipientIdentifier, networks.bitcoin)).toThrow();
    expect(result).toMatchObject({
      availableBalance: 4_321,
      expectedAmountCents: 25_000,
      expectedAmount: 500_000,
      qrCode: `bitcoin:${result.recipientIdentifier}?amount=0.00500000`,
      expiresAt: new Date(now.getTime() + 24 * HOUR).toISOString(),
      futurePaymentId: result.transaction.tx_id,
    });
    expect(result.transaction).toMatchObject({
      state: 'pending',
      type: 'deposit',
      amount: 500_000,
      currency: 'CON',
      payment_method_type: 'bitcoin',
      reference: result.recipientIdentifier,
    });
    const ledgerRow = await subject.database.db
      .selectFrom('ledger_transactions')
      .select(['expires_at', 'state'])
      .where('tx_id', '=', result.futurePaymentId)
      .executeTakeFirstOrThrow();
    expect(ledgerRow.expires_at?.toISOString()).toBe(result.expiresAt);
    expect(await conWallet(ann)).toMatchObject({ available: 4_321, total: 4_321 });

    const [key] = await storedKey();
    const [stored] = await depositsOf(ann);
    expect(stored).toMatchObject({
      address: result.recipientIdentifier,
      amount_sats: 500_000,
      usd_cents: 25_000,
      usd_cents_per_btc: 5_000_000,
      coins: 500_000,
    });
    expect(new DepositAddresses(key?.xpub ?? '', 'testnet').addressAt(stored?.derivation_index ?? -1)).toBe(
      result.recipientIdentifier,
    );
  });

  it('lets the deposit expire after 24 hours, still uncredited', async () => {
    const ann = await signedUp(subject, 'personal');
    const result = depositCoinsResponse.parse((await depositCoins(ann, await quoteFor(ann, 10))).json());
    const expire = () =>
      executeLedgerCommand(
        subject.database.db,
        { type: 'ExpireDeposit', txId: result.futurePaymentId },
        subject.app.ledgerSettings,
      );
    advance(24 * HOUR - 60_000);
    await expect(expire()).rejects.toMatchObject({ code: 'transaction_state_invalid' });
    advance(60_000);
    expect((await expire()).record.state).toBe('expired');
    expect((await conWallet(ann))?.total).toBe(0);
  });

  it("enqueues the deposit's expiry job with it, due when the address expires", async () => {
    const ann = await signedUp(subject, 'personal');
    const result = depositCoinsResponse.parse((await depositCoins(ann, await quoteFor(ann, 10))).json());
    const { rows } = await sql<{ id: string; start_after: Date; data: unknown }>`
      SELECT id, start_after, data FROM pgboss.job WHERE name = 'bitcoin-deposit-expiry' AND data->>'txId' = ${result.futurePaymentId}
    `.execute(subject.database.db);
    expect(rows).toEqual([
      {
        id: jobId('bitcoin-deposit-expiry', result.futurePaymentId),
        start_after: new Date(result.expiresAt),
        data: { txId: result.futurePaymentId },
      },
    ]);
  });

  it("refuses a quote with any figure changed, another user's quote, and an expired one, writing nothing", async () => {
    const ann = await signedUp(subject, 'personal');
    const bob = await signedUp(subject, 'personal');
    const quote = await quoteFor(ann, 100);
    const [expiry, signature] = quote.hash.split('.');
    const tampered: [string, BitcoinQuote][] = [
      ['USDAmount', { ...quote, USDAmount: quote.USDAmount * 2 }],
      ['BTCtoUSD', { ...quote, BTCtoUSD: quote.BTCtoUSD - 1 }],
      ['totalBitcoinAmount', { ...quote, totalBitcoinAmount: 1 }],
      ['peeksCoins', { ...quote, peeksCoins: quote.peeksCoins * 10 }],
      ['expiry', { ...quote, hash: `${Number(expiry) + 24 * 3600}.${signature ?? ''}` }],
    ];
    for (const [what, changed] of tampered) {
      const response = await depositCoins(ann, changed);
      expectRefusal(response, 422, errorCodes.bitcoinQuoteInvalid, what);
      expect(response.json()).toMatchObject({
        errors: [{ field: 'hash', message: 'This bitcoin quote is not valid, please get a new quote' }],
      });
    }
    expectRefusal(await depositCoins(bob, quote), 422, errorCodes.bitcoinQuoteInvalid, "another user's quote");
    expectRefusal(
      await depositCoins(ann, { ...quote, hash: 'not-a-hash' }),
      400,
      errorCodes.invalidArguments,
      'malformed hash',
    );

    advance(15 * 60_000);
    const expired = await depositCoins(ann, quote);
    expectRefusal(expired, 422, errorCodes.bitcoinQuoteExpired, 'expired');
    expect(expired.json()).toMatchObject({
      errors: [{ field: 'hash', message: 'This bitcoin quote has expired, please get a new quote' }],
    });
    expect([...(await depositsOf(ann)), ...(await depositsOf(bob))]).toEqual([]);
  });

  it('stores no address when the ledger refuses the deposit', async () => {
    const ann = await signedUp(subject, 'personal');
    await closeWallet(subject.database.db, walletIdOf(userOwnerId(ann.user.user_id), 'CON'));
    expectRefusal(await depositCoins(ann, await quoteFor(ann, 10)), 422, errorCodes.walletClosed, 'closed wallet');
    expect(await depositsOf(ann)).toEqual([]);
  });

  it('takes CRYPTO:BTC as the payment method only', async () => {
    const ann = await signedUp(subject, 'personal');
    const quote = await quoteFor(ann, 100);
    const card = await ann.browser.post(DEPOSIT, { ...quote, paymentMethodId: 'CC' });
    expectRefusal(card, 400, errorCodes.invalidArguments, 'CC');
    expect(card.json()).toMatchObject({
      errors: [{ field: 'paymentMethodId', message: 'Payment method not supported' }],
    });
    const none = await ann.browser.post(DEPOSIT, quote);
    expect(none.json()).toMatchObject({
      errors: [{ field: 'paymentMethodId', message: 'Please select Payment Method', code: errorCodes.requiredField }],
    });
  });

  it("never gives two deposits the same address, even 50 at once, and each address is the key's child at its index", async () => {
    const ann = await signedUp(subject, 'personal');
    const quote = await quoteFor(ann, 20);
    const responses = await Promise.all(Array.from({ length: 50 }, () => depositCoins(ann, quote)));
    const results = responses.map((response) => {
      expect(response.statusCode, response.body).toBe(200);
      return depositCoinsResponse.parse(response.json());
    });
    const addresses = results.map((result) => testnetAddress(result.recipientIdentifier));
    expect(new Set(addresses).size).toBe(50);
    expect(new Set(results.map((result) => result.futurePaymentId)).size).toBe(50);
    const stored = await depositsOf(ann);
    expect(new Set(stored.map((row) => row.derivation_index)).size).toBe(50);
    const [key] = await storedKey();
    const derive = new DepositAddresses(key?.xpub ?? '', 'testnet');
    for (const row of stored) expect(derive.addressAt(row.derivation_index)).toBe(row.address);
    const every = await subject.database.db.selectFrom('bitcoin_deposits').select('address').execute();
    expect(new Set(every.map((row) => row.address)).size).toBe(every.length);
  });

  it('answers retries with the same Idempotency-Key with the same address and makes one deposit', async () => {
    const ann = await signedUp(subject, 'personal');
    const quote = await quoteFor(ann, 60);
    const first = depositCoinsResponse.parse((await depositCoins(ann, quote, 'btc-once')).json());
    const retries = await Promise.all(Array.from({ length: 8 }, () => depositCoins(ann, quote, 'btc-once')));
    for (const retry of retries) {
      expect(retry.statusCode, retry.body).toBe(200);
      expect(depositCoinsResponse.parse(retry.json())).toMatchObject({
        recipientIdentifier: first.recipientIdentifier,
        futurePaymentId: first.futurePaymentId,
      });
    }
    const racing = await Promise.all(Array.from({ length: 8 }, () => depositCoins(ann, quote, 'btc-race')));
    expect(
      new Set(racing.map((response) => depositCoinsResponse.parse(response.json()).recipientIdentifier)).size,
    ).toBe(1);
    expect(await depositsOf(ann)).toHaveLength(2);
    const pending = await subject.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payee_owner_id', '=', userOwnerId(ann.user.user_id))
      .execute();
    expect(pending).toHaveLength(2);
  });
});

describe('the deposit key', () => {
  it('is generated once, public only, and kept with the quote secret for the next start', async () => {
    const keys = await storedKey();
    expect(keys).toEqual([
      expect.objectContaining({ network: 'testnet', generated: true, xpub: expect.stringMatching(/^vpub/) as unknown }),
    ]);
    const ann = await signedUp(subject, 'personal');
    const quote = await quoteFor(ann, 30);
    const restarted = await createTestApp({ ...testAppOptions, clock: () => now, database: subject.database });
    try {
      expect(await storedKey()).toEqual(keys);
      const browser = await restarted.browser();
      browser.cookie = ann.browser.cookie;
      browser.csrfToken = ann.browser.csrfToken;
      const response = await browser.post(DEPOSIT, { ...quote, paymentMethodId: 'CRYPTO:BTC' });
      expect(response.statusCode, response.body).toBe(200);
      const { recipientIdentifier } = depositCoinsResponse.parse(response.json());
      const [stored] = await depositsOf(ann);
      expect(new DepositAddresses(keys[0]?.xpub ?? '', 'testnet').addressAt(stored?.derivation_index ?? -1)).toBe(
        recipientIdentifier,
      );
    } finally {
      await restarted.app.close();
    }
    expect(JSON.stringify(subject.logLines)).not.toMatch(/[tv]prv/);
  });

  it('derives from a configured vpub the addresses of the wallet that holds its seed', async () => {
    const bip32 = BIP32Factory(ecc);
    const account = bip32.fromSeed(randomBytes(32), networks.testnet).derivePath("m/84'/1'/0'");
    const payload = Uint8Array.from(bs58check.decode(account.neutered().toBase58()));
    new DataView(payload.buffer).setUint32(0, 0x045f1cf6);
    const vpub = bs58check.encode(payload);
    const configured = await createTestApp({
      ...testAppOptions,
      deposits: {
        recipients: { interac: 'i@deposits.example', zelle: 'z@deposits.example' },
        bitcoin: { network: 'testnet', xpub: vpub, price: fixedBitcoinPrice(5_000_000) },
      },
    });
    try {
      const ann = await signedUp(configured, 'personal');
      const info = bitcoinInfoResponse.parse((await ann.browser.post(INFO, { amount: 80 })).json());
      const response = await ann.browser.post(DEPOSIT, { ...info, paymentMethodId: 'CRYPTO:BTC' });
      expect(response.statusCode, response.body).toBe(200);
      const { recipientIdentifier } = depositCoinsResponse.parse(response.json());
      const row = await configured.database.db
        .selectFrom('bitcoin_deposits')
        .select('derivation_index')
        .executeTakeFirstOrThrow();
      const expected = payments.p2wpkh({
        pubkey: account.derive(0).derive(row.derivation_index).publicKey,
        network: networks.testnet,
      }).address;
      expect(recipientIdentifier).toBe(expected);
      expect(await configured.database.db.selectFrom('bitcoin_keys').select(['xpub', 'generated']).execute()).toEqual([
        { xpub: vpub, generated: false },
      ]);
    } finally {
      await configured.close();
    }
  });
});
