import { errorCodes, tokenizeResponse, transactionResponse } from '@peeks/contracts';
import { readConfig, serveSandboxProcessor } from '@peeks/runtime';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, processorHeaders, TEST_PROCESSOR_SECRET, type TestApp } from '../../testing/app.ts';
import { signedUp } from '../../testing/merchants.ts';
import { cardEntry, storedCard, tokenFor } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { CardProcessorUnavailable, sandboxCardCharges } from '@peeks/card-processor';
import { APPROVED_CARD, DECLINED_CARD } from './cards.ts';

let subject: TestApp;
let processorUrl: string;
beforeAll(async () => {
  subject = await createTestApp();
  const { port } = subject.app.server.address() as { port: number };
  processorUrl = `http://127.0.0.1:${port}`;
});
afterAll(() => subject.close());

const tokenize = (entry: Record<string, unknown>) =>
  subject.app.inject({ method: 'POST', url: '/api/sandbox/tokenize', payload: cardEntry(entry) });
const messagesOf = (body: string) =>
  (JSON.parse(body) as { errors: { field?: string; message: string }[] }).errors.map((each) => [
    each.field,
    each.message,
  ]);

describe('the sandbox tokenizer', () => {
  it('answers a token that keeps the first six and last four digits, with brand and mask, and no session or CSRF token', async () => {
    const response = await tokenize({ card_number: '4242 4242 4242 4242' });
    expect(response.statusCode, response.body).toBe(200);
    const { token, brand, mask } = tokenizeResponse.parse(response.json());
    expect(token).toMatch(/^424242[A-Za-z0-9]{16}4242$/);
    expect({ brand, mask }).toEqual({ brand: 'visa', mask: '************4242' });
    expect(token).not.toContain(APPROVED_CARD);
    expect(await tokenFor(subject)).not.toBe(token);
  });

  it('keeps the card number in its own table only, and never in the log', async () => {
    await tokenize({ card_number: '5555555555554444' });
    const stored = await subject.database.db
      .selectFrom('sandbox_cards')
      .select('card_number')
      .where('card_number', '=', '5555555555554444')
      .execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(subject.logLines)).not.toContain('5555555555554444');
  });

  it.each([
    [{ card_number: undefined }, 'card_number', 'Please enter Card Number'],
    [{ card_number: '4242424242424241' }, 'card_number', 'Please enter valid Card Number'],
    [{ card_number: '4242' }, 'card_number', 'Please enter valid Card Number'],
    [{ cvv: '' }, 'cvv', 'Please enter CVV'],
    [{ cvv: '12' }, 'cvv', 'Please enter at least 3 characters CVV'],
    [{ cvv: '1234' }, 'cvv', 'Please enter at most 3 characters CVV'],
    [{ cvv: '12a' }, 'cvv', 'Please enter valid CVV'],
    [{ expiry_month: '13' }, 'expiry_month', 'Please enter valid Expiry Month'],
    [{ expiry_month: '8' }, 'expiry_month', 'Please enter valid Expiry Month'],
    [{ expiry_year: '27' }, 'expiry_year', 'Please enter valid Expiry Year'],
    [{ expiry_year: String(new Date().getUTCFullYear() - 1) }, 'expiry_year', 'Please enter valid Expiry Year'],
    [{ expiry_year: String(new Date().getUTCFullYear() + 10) }, 'expiry_year', 'Please enter valid Expiry Year'],
  ])('refuses %j with its message', async (entry, field, message) => {
    const response = await tokenize(entry);
    expect(response.statusCode, response.body).toBe(400);
    expect(messagesOf(response.body)).toContainEqual([field, message]);
  });

  it('refuses last month as the expiry, and takes this month', async () => {
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const past = await tokenize({
      expiry_month: String(lastMonth.getUTCMonth() + 1).padStart(2, '0'),
      expiry_year: String(lastMonth.getUTCFullYear()),
    });
    expect(messagesOf(past.body)).toContainEqual(['expiry_year', 'Please enter valid Expiry Year']);
    const current = await tokenize({
      expiry_month: String(now.getUTCMonth() + 1).padStart(2, '0'),
      expiry_year: String(now.getUTCFullYear()),
    });
    expect(current.statusCode, current.body).toBe(200);
  });

  it('serves its page for an iframe of the app only, with its script allowed by nonce', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/sandbox/tokenizer' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'self'");
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(response.body).toContain(`<script nonce="${nonce ?? 'missing'}">`);
    expect(response.body).toContain("fetch('tokenize'");
    expect(response.body).toContain('postMessage(');
    expect(response.body).toContain('window.location.origin');
  });

  it("looks like the app within its policy: a nonce'd style with the app's colours, light and dark", async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/sandbox/tokenizer' });
    const policy = String(response.headers['content-security-policy']);
    const styleNonce =
      /style-src[^;]*'nonce-([^']+)'/.exec(policy)?.[1] ?? /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(response.body).toContain(`<style nonce="${styleNonce ?? 'missing'}">`);
    expect(response.body).toContain('--brand: #2f3e9e');
    expect(response.body).toContain('@media (prefers-color-scheme: dark)');
    expect(response.body).not.toMatch(/ style="/);
    // After 'Use this card' the page says which card it kept instead of going blank.
    expect(response.body).toContain('<p class="ready" id="ready" role="status"></p>');
  });
});

describe('sandbox charges through the CardCharges adapter, over HTTP', () => {
  const charges = () =>
    sandboxCardCharges({ baseUrl: () => processorUrl, timeoutMs: 2000, credential: TEST_PROCESSOR_SECRET });
  const key = () => `key-${Math.random().toString(36).slice(2)}`;

  it('approves 4242424242424242 and declines 4000000000000002', async () => {
    const approved = await charges().charge({
      token: await tokenFor(subject),
      amount: 642,
      currency: 'USD',
      idempotencyKey: key(),
    });
    expect(approved.status).toBe('approved');
    const declined = await charges().charge({
      token: await tokenFor(subject, { card_number: DECLINED_CARD }),
      amount: 642,
      currency: 'USD',
      idempotencyKey: key(),
    });
    expect(declined.status).toBe('declined');
  });

  it('charges once per idempotency key, for retries and concurrent duplicates alike', async () => {
    const token = await tokenFor(subject);
    const idempotencyKey = key();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => charges().charge({ token, amount: 1000, currency: 'USD', idempotencyKey })),
    );
    const ids = new Set(outcomes.map((outcome) => ('chargeId' in outcome ? outcome.chargeId : outcome.status)));
    expect(ids.size).toBe(1);
    const rows = await subject.database.db
      .selectFrom('sandbox_charges')
      .select('charge_id')
      .where('idempotency_key', '=', idempotencyKey)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refunds an approved charge once, however often asked, and knows no refund of a declined or unknown charge', async () => {
    const approvedKey = key();
    await charges().charge({
      token: await tokenFor(subject),
      amount: 700,
      currency: 'USD',
      idempotencyKey: approvedKey,
    });
    await charges().refund(approvedKey);
    const [first] = await subject.database.db
      .selectFrom('sandbox_charges')
      .select('refunded_at')
      .where('idempotency_key', '=', approvedKey)
      .execute();
    expect(first?.refunded_at).toBeInstanceOf(Date);
    await charges().refund(approvedKey);
    const [again] = await subject.database.db
      .selectFrom('sandbox_charges')
      .select('refunded_at')
      .where('idempotency_key', '=', approvedKey)
      .execute();
    expect(again?.refunded_at).toEqual(first?.refunded_at);

    const declinedKey = key();
    await charges().charge({
      token: await tokenFor(subject, { card_number: DECLINED_CARD }),
      amount: 700,
      currency: 'USD',
      idempotencyKey: declinedKey,
    });
    await expect(charges().refund(declinedKey)).rejects.toBeInstanceOf(CardProcessorUnavailable);
    const unknown = await subject.app.inject({
      method: 'POST',
      url: '/api/sandbox/refunds',
      headers: processorHeaders,
      payload: { idempotency_key: key() },
    });
    expectRefusal(unknown, 404, errorCodes.cardChargeNotFound, 'unknown charge');
  });

  it('refunds part of a charge once per refund key, and never more than the charge, however the refunds race', async () => {
    const chargeKey = key();
    await charges().charge({
      token: await tokenFor(subject),
      amount: 1_000,
      currency: 'USD',
      idempotencyKey: chargeKey,
    });
    // Ten refund keys of 300 each, every one asked three times at once: three of them fit in 1,000.
    const asks = Array.from({ length: 10 }, (_, index) =>
      Array.from({ length: 3 }, () =>
        charges()
          .refundPart({ chargeKey, refundKey: `${chargeKey}:refund-${index}`, amount: 300 })
          .then(
            (answer) => ({ index, answer }),
            (error: unknown) => ({ index, answer: error }),
          ),
      ),
    ).flat();
    const answers = await Promise.all(asks);
    const refunded = new Set(
      answers
        .filter((each) => typeof each.answer === 'object' && each.answer !== null && 'refundId' in each.answer)
        .map((each) => each.index),
    );
    expect(refunded.size).toBe(3);
    // The processor's 422 is its answer, not its silence: a refusal, never "not answering".
    for (const each of answers.filter((one) => !refunded.has(one.index)))
      expect(each.answer).toEqual({ refused: 'Only 100 of the charge is left to refund' });
    const rows = await subject.database.db
      .selectFrom('sandbox_refunds')
      .select(['refund_key', 'amount'])
      .where('refund_key', 'like', `${chargeKey}:%`)
      .execute();
    expect(rows).toHaveLength(3);
    // The same refund key for another amount is refused, and a key no charge has is not found.
    const reused = await subject.app.inject({
      method: 'POST',
      url: '/api/sandbox/partial-refunds',
      payload: { idempotency_key: chargeKey, refund_key: rows[0]?.refund_key, amount: 100 },
      headers: processorHeaders,
    });
    expectRefusal(reused, 409, errorCodes.idempotencyKeyReused, 'refund key reused');
    expect(await charges().refundPart({ chargeKey: key(), refundKey: key(), amount: 100 })).toBe('no-charge');
  });

  it('refuses the same key for another amount, and a token it never issued', async () => {
    const token = await tokenFor(subject);
    const idempotencyKey = key();
    await charges().charge({ token, amount: 1000, currency: 'USD', idempotencyKey });
    expect((await charges().charge({ token, amount: 2000, currency: 'USD', idempotencyKey })).status).toBe(
      'key-reused',
    );
    expect(
      (await charges().charge({ token: '424242notatoken4242', amount: 100, currency: 'USD', idempotencyKey: key() }))
        .status,
    ).toBe('refused');
    expect(await charges().cardOf('424242notatoken4242')).toBeNull();
    expect(await charges().cardOf(token)).toMatchObject({ brand: 'visa', mask: '************4242' });
  });

  it('gives up on a processor that does not answer in time, and on one that is not there', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const slow = sandboxCardCharges({
      baseUrl: () => `http://127.0.0.1:${port}`,
      timeoutMs: 200,
      credential: TEST_PROCESSOR_SECRET,
    });
    const started = Date.now();
    await expect(slow.charge({ token: 'x', amount: 1, currency: 'USD', idempotencyKey: key() })).rejects.toBeInstanceOf(
      CardProcessorUnavailable,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    const gone = sandboxCardCharges({
      baseUrl: () => `http://127.0.0.1:${port}`,
      timeoutMs: 200,
      credential: TEST_PROCESSOR_SECRET,
    });
    await expect(gone.cardOf('x')).rejects.toBeInstanceOf(CardProcessorUnavailable);
  });

  it('refuses a charge call with a malformed body', async () => {
    const response = await subject.app.inject({
      method: 'POST',
      url: '/api/sandbox/charges',
      headers: processorHeaders,
      payload: { token: 'x', amount: -5, currency: 'USD', idempotency_key: 'k' },
    });
    expectRefusal(response, 400, errorCodes.invalidArguments, 'negative amount');
  });
});

const storedToken = async (paymentMethodId: number) => {
  const method = await subject.database.db
    .selectFrom('payment_methods')
    .select('type_specific')
    .where('payment_method_id', '=', paymentMethodId)
    .executeTakeFirstOrThrow();
  return String(method.type_specific.token);
};

describe('the processor is a separate party (issue 21, item 1)', () => {
  const processorCall = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    subject.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

  it('refuses a refund asked for by a purchase tx_id: no credential is 401, and the tx_id names no charge', async () => {
    const buyer = await signedUp(subject, 'personal');
    const card = await storedCard(subject, buyer);
    const bought = await buyer.browser.post('/api/account/purchase', {
      payment_method_id: card,
      coin_amt: 10_000,
      currency: 'USD',
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const txId = transactionResponse.parse(bought.json()).transaction.tx_id;

    const anonymous = await processorCall('/api/sandbox/refunds', { idempotency_key: txId });
    expectRefusal(anonymous, 401, errorCodes.processorCredentialRefused, 'anonymous refund');
    const signedInRefund = await buyer.browser.post('/api/sandbox/refunds', { idempotency_key: txId });
    expectRefusal(signedInRefund, 401, errorCodes.processorCredentialRefused, "the buyer's own refund");
    const byTxId = await processorCall('/api/sandbox/refunds', { idempotency_key: txId }, processorHeaders);
    expectRefusal(byTxId, 404, errorCodes.cardChargeNotFound, 'the tx_id is not the charge key');

    const charges = await subject.database.db
      .selectFrom('sandbox_charges')
      .select(['idempotency_key', 'refunded_at'])
      .where('token', '=', await storedToken(card))
      .execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]?.idempotency_key).not.toContain(txId);
    expect(charges[0]?.refunded_at).toBeNull();
  });

  it('refuses anonymous charges and card lookups, and a wrong credential, before reading the body', async () => {
    const token = await tokenFor(subject);
    const charge = { token, amount: 99_999_999, currency: 'USD', idempotency_key: 'anonymous-charge' };
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: TEST_PROCESSOR_SECRET }]) {
      expectRefusal(
        await processorCall('/api/sandbox/charges', charge, headers),
        401,
        errorCodes.processorCredentialRefused,
        `charge with ${JSON.stringify(headers)}`,
      );
      expectRefusal(
        await processorCall('/api/sandbox/card-lookup', { token }, headers),
        401,
        errorCodes.processorCredentialRefused,
        'card lookup',
      );
      expectRefusal(
        await processorCall('/api/sandbox/charges', 'not json at all', headers),
        401,
        errorCodes.processorCredentialRefused,
        'a bad body',
      );
    }
    const charged = await subject.database.db
      .selectFrom('sandbox_charges')
      .select('charge_id')
      .where('idempotency_key', '=', 'anonymous-charge')
      .execute();
    expect(charged).toEqual([]);
  });

  it('is not served at all when the sandbox processor is off, as in production by default', async () => {
    const production = await createTestApp({ sandboxProcessor: false });
    try {
      // A browser with a session and its CSRF token, so that only the missing route can answer.
      const browser = await production.browser();
      for (const url of [
        '/api/sandbox/charges',
        '/api/sandbox/refunds',
        '/api/sandbox/card-lookup',
        '/api/sandbox/tokenize',
      ])
        expect((await browser.request('POST', url, {}, processorHeaders)).statusCode, url).toBe(404);
      expect((await browser.get('/api/sandbox/tokenizer')).statusCode).toBe(404);
    } finally {
      await production.close();
    }
    expect(serveSandboxProcessor(readConfig({ NODE_ENV: 'production' }))).toBe(false);
    expect(serveSandboxProcessor(readConfig({ NODE_ENV: 'production', SANDBOX_PROCESSOR: 'on' }))).toBe(true);
    expect(serveSandboxProcessor(readConfig({}))).toBe(true);
    expect(serveSandboxProcessor(readConfig({ SANDBOX_PROCESSOR: 'off' }))).toBe(false);
  });

  it('limits tokenize calls per address', async () => {
    const limited = await createTestApp({ rateLimits: { cardTokenize: { max: 2, timeWindow: 60_000 } } });
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1)
        statuses.push(
          (await limited.app.inject({ method: 'POST', url: '/api/sandbox/tokenize', payload: cardEntry({}) }))
            .statusCode,
        );
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
