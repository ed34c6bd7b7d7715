import {
  coinCountLabel,
  DEFAULT_SECURITY_QUESTION,
  errorCodes,
  interacDepositResponse,
  zelleDepositResponse,
} from '@peeks/contracts';
import { openEmailSecrets, renderEmail } from '@peeks/jobs';
import { DEFAULT_RATE_MICROS, userOwnerId, walletIdOf } from '@peeks/ledger';
import { closeWallet, executeLedgerCommand, walletsOf } from '@peeks/ledger-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { depositByReference, pendingEmailTransferDeposits } from './email-transfer-queries.ts';
import { amountCases } from '../../testing/amount-cases.ts';

const INTERAC = '/api/account/deposit-interac';
const ZELLE = '/api/account/deposit-zell';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    deposits: {
      recipients: { interac: 'etransfer@deposits.example', zelle: 'zelle@deposits.example' },
      bitcoin: { network: 'testnet', price: { usdCentsPerBitcoin: () => Promise.resolve(5_000_000) } },
    },
  });
});
afterAll(() => subject.close());

const deposit = (who: SignedIn, url: string, body: unknown, key?: string) =>
  who.browser.request('POST', url, body, key === undefined ? {} : { 'idempotency-key': key });
const conWallet = async (who: SignedIn) => {
  const owner = userOwnerId(who.user.user_id);
  return (await walletsOf(subject.database.db, owner)).find((wallet) => wallet.walletId === walletIdOf(owner, 'CON'));
};
const rowsFor = async (txId: string) => ({
  instructions: await subject.database.db
    .selectFrom('deposit_instructions')
    .selectAll()
    .where('tx_id', '=', txId)
    .execute(),
  transactions: await subject.database.db
    .selectFrom('ledger_transactions')
    .select(['tx_id', 'state', 'amount'])
    .where('tx_id', '=', txId)
    .execute(),
});
/** The e-mail as its reader gets it, its secrets opened; spaces as plain spaces. */
const emailText = async (email: { subject: string; payload: unknown } | undefined) =>
  renderEmail(
    email?.subject ?? '',
    await openEmailSecrets(subject.database.db, email?.payload as Record<string, unknown>),
  ).replaceAll('\u00a0', ' ');
const emailsTo = (recipient: string) =>
  subject.database.db
    .selectFrom('email_outbox')
    .select(['template', 'subject', 'payload', 'sent_at'])
    .where('recipient', '=', recipient)
    .orderBy('email_id')
    .execute();
/**
 * floor(20 × amount × rate) whole coins, in CON minor units, worked out here in whole numbers: Interac moves
 * Canadian dollars, at 0.78 US dollars each; Zelle moves US dollars, the price list's reference.
 */
const rateOf = (url: string) => (url === INTERAC ? DEFAULT_RATE_MICROS : 1_000_000);
const expectedCoins = (amount: number, url: string) => Math.floor((20 * amount * rateOf(url)) / 1_000_000) * 100;

describe('POST /api/account/deposit-interac', () => {
  it('makes a pending deposit with a reference memo, the recipient, the default question and a generated answer, and e-mails them', async () => {
    const ann = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(ann.user.user_id), 1_234);
    const response = await deposit(ann, INTERAC, { amount: 50 });
    expect(response.statusCode, response.body).toBe(200);
    const answer = interacDepositResponse.parse(response.json());
    expect(answer.answer).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
    expect(answer.forexRate).toBe(780_000);
    expect(answer.user).toEqual({ userId: ann.user.user_id });
    expect(answer.deposit).toMatchObject({
      method: 'interac',
      recipient: { name: 'Peeks Wallet', email: 'etransfer@deposits.example' },
      security_question: DEFAULT_SECURITY_QUESTION,
      security_answer: answer.answer,
      amount: 5_000,
      currency: 'CAD',
      rate_micros: 780_000,
      coin_estimate: 78_000,
      tx_id: answer.transaction.tx_id,
    });
    expect(answer.deposit.reference).toMatch(/^PKS-[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$/);
    expect(coinCountLabel(answer.deposit.coin_estimate)).toBe('780 Coins');
    expect(answer.transaction).toMatchObject({
      state: 'pending',
      type: 'deposit',
      amount: 78_000,
      currency: 'CON',
      reference: answer.deposit.reference,
      payment_method_type: 'interac',
      debit_credit: 'C',
    });

    const [email, ...more] = await emailsTo(ann.user.email);
    expect(more).toEqual([]);
    expect(email).toMatchObject({ template: 'email-transfer-deposit-instructions', sent_at: null });
    expect(email?.subject).toContain(answer.deposit.reference);
    // The answer is a secret: sealed at rest, opened only to send the e-mail.
    expect(JSON.stringify(email?.payload)).not.toContain(answer.answer);
    const text = await emailText(email);
    for (const line of [
      'Send with: Interac e-Transfer',
      `Memo: ${answer.deposit.reference}`,
      'Recipient e-mail: etransfer@deposits.example',
      `Security answer: ${answer.answer}`,
      'Amount: CAD 50.00',
      'Coins you receive: 780 Coins',
    ])
      expect(text).toContain(line);
    // Names and amounts in words, never the method's code or minor units.
    expect(text).not.toMatch(/\binterac\b|5000|78000/);

    const wallet = await conWallet(ann);
    expect([wallet?.available, wallet?.total]).toEqual([1_234, 1_234]);
  });

  it("takes the user's own security question, 5 to 40 characters", async () => {
    const ann = await signedUp(subject, 'personal');
    const response = await deposit(ann, INTERAC, {
      amount: 20,
      currency: 'CAD',
      securityQuestion: 'Name of my first cat?',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(interacDepositResponse.parse(response.json()).deposit.security_question).toBe('Name of my first cat?');
    const short = await deposit(ann, INTERAC, { amount: 20, securityQuestion: 'Why?' });
    expectRefusal(short, 400, errorCodes.invalidArguments, 'short question');
    expect(short.json()).toMatchObject({
      errors: [{ field: 'securityQuestion', message: 'Please enter at least 5 characters Security Question' }],
    });
    const long = await deposit(ann, INTERAC, { amount: 20, securityQuestion: 'x'.repeat(41) });
    expect(long.json()).toMatchObject({
      errors: [{ field: 'securityQuestion', message: 'Please enter at most 40 characters Security Question' }],
    });
  });

  it("e-mails the instructions in the language the person's browser asks for", async () => {
    const ann = await signedUp(subject, 'personal');
    const response = await ann.browser.request(
      'POST',
      INTERAC,
      { amount: 20 },
      { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.8' },
    );
    expect(response.statusCode, response.body).toBe(200);
    const { deposit: made } = interacDepositResponse.parse(response.json());
    const [email] = await emailsTo(ann.user.email);
    expect(email?.subject).toBe(`Interac e-Transferでの入金手順（${made.reference}）`);
    expect(await emailText(email)).toContain('受け取るコイン: 312 コイン');
  });

  it('moves Canadian dollars only', async () => {
    const ann = await signedUp(subject, 'personal');
    const response = await deposit(ann, INTERAC, { amount: 20, currency: 'USD' });
    expectRefusal(response, 400, errorCodes.currencyMismatch, 'USD by Interac');
    expect(response.json()).toMatchObject({ errors: [{ field: 'currency', message: 'Invalid currency' }] });
  });
});

describe('POST /api/account/deposit-zell', () => {
  it('makes a pending deposit in USD with a memo and the Zelle recipient, and no security answer', async () => {
    const bob = await signedUp(subject, 'personal');
    const response = await deposit(bob, ZELLE, { amount: 7 });
    expect(response.statusCode, response.body).toBe(200);
    const answer = zelleDepositResponse.parse(response.json());
    expect(answer.forexRate).toBe(1_000_000);
    expect(answer.memo).toBe(answer.deposit.reference);
    expect(answer.zelleRecipient).toEqual({ name: 'Peeks Wallet', email: 'zelle@deposits.example' });
    expect(answer.deposit).toMatchObject({
      method: 'zelle',
      amount: 700,
      currency: 'USD',
      coin_estimate: 14_000,
      security_question: null,
      security_answer: null,
    });
    // $7 at 20 coins a US dollar.
    expect(coinCountLabel(answer.deposit.coin_estimate)).toBe('140 Coins');
    expect(answer.quote).toMatchObject({
      from_currency: 'USD',
      amount_in: 700,
      amount_out: 14_000,
      rate: '20',
      fee: 0,
    });
    expect(answer.transaction).toMatchObject({ state: 'pending', amount: 14_000, payment_method_type: 'zelle' });
    const [email, ...more] = await emailsTo(bob.user.email);
    expect(more).toEqual([]);
    expect(email?.subject).toBe(`Your Zelle deposit instructions (${answer.memo})`);
    const text = await emailText(email);
    expect(text).toContain('Send with: Zelle');
    expect(text).toContain('Amount: USD 7.00');
    expect(text).toContain('Coins you receive: 140 Coins');
    // No security question for Zelle, and no line saying so.
    expect(text).not.toMatch(/: zelle$|Security|null/m);
    expectRefusal(
      await deposit(bob, ZELLE, { amount: 7, currency: 'CAD' }),
      400,
      errorCodes.currencyMismatch,
      'CAD by Zelle',
    );
  });
});

describe.each([INTERAC, ZELLE])('%s', (url) => {
  it('estimates floor(20 × amount × rate) coins', async () => {
    const ann = await signedUp(subject, 'personal');
    for (const amount of [1, 3, 99, 333, 500]) {
      const response = await deposit(ann, url, { amount });
      expect(response.statusCode, response.body).toBe(200);
      const { deposit: made } = (url === INTERAC ? interacDepositResponse : zelleDepositResponse).parse(
        response.json(),
      );
      expect([amount, made.coin_estimate]).toEqual([amount, expectedCoins(amount, url)]);
    }
    expect(coinCountLabel(expectedCoins(1, url))).toBe(url === INTERAC ? '15 Coins' : '20 Coins');
  });

  it.each(amountCases)('answers amount $body.amount with "$message"', async ({ body, message, code }) => {
    const ann = await signedUp(subject, 'personal');
    const response = await deposit(ann, url, body);
    expectRefusal(response, 400, code, JSON.stringify(body));
    expect(response.json()).toMatchObject({ errors: [{ field: 'amount', message, code }] });
    expect(
      await subject.database.db
        .selectFrom('deposit_instructions')
        .select('tx_id')
        .where('user_id', '=', ann.user.user_id)
        .execute(),
    ).toEqual([]);
  });

  it('makes one deposit, one memo and one e-mail per Idempotency-Key, however often and however concurrently it is retried', async () => {
    const ann = await signedUp(subject, 'personal');
    const first = await deposit(ann, url, { amount: 40 }, 'deposit-once');
    const retries = await Promise.all(
      Array.from({ length: 6 }, () => deposit(ann, url, { amount: 40 }, 'deposit-once')),
    );
    const answers = [first, ...retries].map((response) => {
      expect(response.statusCode, response.body).toBe(200);
      return (url === INTERAC ? interacDepositResponse : zelleDepositResponse).parse(response.json()).deposit;
    });
    expect(new Set(answers.map((each) => JSON.stringify(each))).size).toBe(1);
    const { instructions, transactions } = await rowsFor(answers[0]?.tx_id ?? '');
    expect([instructions.length, transactions.length]).toEqual([1, 1]);
    expect(await emailsTo(ann.user.email)).toHaveLength(1);

    const racing = await Promise.all(Array.from({ length: 6 }, () => deposit(ann, url, { amount: 41 }, 'race-once')));
    const raced = racing.map(
      (response) => (url === INTERAC ? interacDepositResponse : zelleDepositResponse).parse(response.json()).deposit,
    );
    expect(new Set(raced.map((each) => each.reference)).size).toBe(1);
    expect(await emailsTo(ann.user.email)).toHaveLength(2);

    const reused = await deposit(ann, url, { amount: 45 }, 'deposit-once');
    expectRefusal(reused, 409, errorCodes.idempotencyKeyReused, 'same key, other amount');
  });

  it('gives every deposit its own reference memo, even many at once', async () => {
    const ann = await signedUp(subject, 'personal');
    const responses = await Promise.all(Array.from({ length: 25 }, () => deposit(ann, url, { amount: 10 })));
    const references = responses.map(
      (response) =>
        (url === INTERAC ? interacDepositResponse : zelleDepositResponse).parse(response.json()).deposit.reference,
    );
    expect(new Set(references).size).toBe(25);
  });

  it('writes nothing, e-mails nothing, when the ledger refuses the deposit', async () => {
    const ann = await signedUp(subject, 'personal');
    await closeWallet(subject.database.db, walletIdOf(userOwnerId(ann.user.user_id), 'CON'));
    const response = await deposit(ann, url, { amount: 10 });
    expectRefusal(response, 422, errorCodes.walletClosed, 'closed wallet');
    expect(
      await subject.database.db
        .selectFrom('deposit_instructions')
        .select('tx_id')
        .where('user_id', '=', ann.user.user_id)
        .execute(),
    ).toEqual([]);
    expect(await emailsTo(ann.user.email)).toEqual([]);
  });
});

describe('what a finance operator matches transfers with', () => {
  it('lists pending deposits with memo, amount and sender, finds one by memo, and credits the estimate only when cleared', async () => {
    const cy = await signedUp(subject, 'personal');
    const made = interacDepositResponse.parse((await deposit(cy, INTERAC, { amount: 100 })).json()).deposit;
    const pending = await pendingEmailTransferDeposits(subject.database.db);
    expect(pending.find((each) => each.tx_id === made.tx_id)).toMatchObject({
      reference: made.reference,
      amount: 10_000,
      currency: 'CAD',
      sender_email: cy.user.email,
      state: 'pending',
      coins: 156_000,
      security_answer: made.security_answer,
    });
    expect(await depositByReference(subject.database.db, ` ${made.reference.toLowerCase()} `)).toMatchObject({
      tx_id: made.tx_id,
      state: 'pending',
    });
    expect((await conWallet(cy))?.available).toBe(0);

    await executeLedgerCommand(
      subject.database.db,
      { type: 'ClearDeposit', txId: made.tx_id, clearedBy: 'operator-1' },
      subject.app.ledgerSettings,
    );
    expect((await conWallet(cy))?.available).toBe(156_000);
    expect((await pendingEmailTransferDeposits(subject.database.db)).map((each) => each.tx_id)).not.toContain(
      made.tx_id,
    );
  });
});
