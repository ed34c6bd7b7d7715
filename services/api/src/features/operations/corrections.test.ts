import {
  correctionDecisionResponse,
  correctionRequestedResponse,
  errorCodes,
  operationResponse,
  pendingCorrectionsResponse,
} from '@peeks/contracts';
import { readStream } from '@peeks/db';
import { transactionStream, userOwnerId } from '@peeks/ledger';
import { verifyLedger, walletsOf } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { signedUpOperator } from '../../testing/operations.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { correctionStream, correctionTransactionId } from './corrections.ts';

const APPROVAL = 100_00;
const CAP = 5_000_00;

let subject: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, corrections: { maxMinor: CAP, approvalMinor: APPROVAL } });
  [alice, bob, carol] = await Promise.all([
    signedUpOperator(subject),
    signedUpOperator(subject),
    signedUpOperator(subject),
  ]);
});
afterAll(() => subject.close());

const ownerId = (who: SignedIn) => userOwnerId(who.user.user_id);
const post = (who: SignedIn, url: string, body: unknown, key?: string) =>
  who.browser.request('POST', url, body, key === undefined ? {} : { 'idempotency-key': key });

async function balance(who: SignedIn, currency = 'CON') {
  return (await walletsOf(subject.database.db, ownerId(who))).find((wallet) => wallet.currency === currency)?.total;
}

/** A correction over the threshold that `by` asks for: answered 202 and waiting. */
async function requested(by: SignedIn, customer: SignedIn, amount = 250_00, key?: string) {
  const response = await post(
    by,
    '/api/operations/correct-balance',
    { user_id: customer.user.user_id, currency: 'CON', amount, reason: 'Refund of a double charge' },
    key,
  );
  expect(response.statusCode, response.body).toBe(202);
  return correctionRequestedResponse.parse(response.json()).correction;
}

const approve = (by: SignedIn, correctionId: string, key?: string) =>
  post(by, '/api/operations/approve-correction', { correction_id: correctionId }, key);

async function pendingIds() {
  const response = await alice.browser.get('/api/operations/corrections?limit=200');
  expect(response.statusCode, response.body).toBe(200);
  return pendingCorrectionsResponse.parse(response.json()).corrections.map((each) => each.correction_id);
}

describe('the correction threshold', () => {
  it('posts a correction up to the threshold at once, and holds one above it for a second operator', async () => {
    const customer = await signedUp(subject, 'personal');
    const atThreshold = await post(alice, '/api/operations/correct-balance', {
      user_id: customer.user.user_id,
      currency: 'CON',
      amount: APPROVAL,
      reason: 'Goodwill credit',
    });
    expect(atThreshold.statusCode, atThreshold.body).toBe(200);
    expect(operationResponse.parse(atThreshold.json()).transaction.amount).toBe(APPROVAL);
    expect(await balance(customer)).toBe(APPROVAL);
    await fund(subject, ownerId(customer), 1);

    const correction = await requested(alice, customer, -(APPROVAL + 1));
    expect(correction).toMatchObject({
      state: 'pending',
      owner_id: ownerId(customer),
      user_id: customer.user.user_id,
      amount: -(APPROVAL + 1),
      requested_by: ownerId(alice),
      requested_by_username: alice.user.username,
      decided_by: null,
      tx_id: null,
    });
    expect(await balance(customer)).toBe(APPROVAL + 1);
    expect(await pendingIds()).toContain(correction.correction_id);
    const [event] = await readStream(subject.database.db, correctionStream(correction.correction_id));
    expect(event).toMatchObject({
      type: 'CorrectionRequested',
      data: { amount: -(APPROVAL + 1), requestedBy: ownerId(alice), ownerId: ownerId(customer) },
      metadata: { actor: ownerId(alice) },
    });
  });

  it('asks once for a request retried with its Idempotency-Key', async () => {
    const customer = await signedUp(subject, 'personal');
    const body = { user_id: customer.user.user_id, currency: 'CON', amount: 300_00, reason: 'Late refund' };
    const answers = await Promise.all([
      post(alice, '/api/operations/correct-balance', body, 'ask-once'),
      post(alice, '/api/operations/correct-balance', body, 'ask-once'),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);
    const [first, second] = answers.map((answer) => correctionRequestedResponse.parse(answer.json()).correction);
    expect(second?.correction_id).toBe(first?.correction_id);
    expect(answers.map((answer) => answer.headers['idempotent-replayed']).sort()).toEqual(['true', undefined]);
    const rows = await subject.database.db
      .selectFrom('correction_requests')
      .select('correction_id')
      .where('owner_id', '=', ownerId(customer))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses one key for a posted and a requested correction (409), whichever came first', async () => {
    const customer = await signedUp(subject, 'personal');
    const form = (amount: number) => ({ user_id: customer.user.user_id, currency: 'CON', amount, reason: 'Mixed' });
    const small = await post(alice, '/api/operations/correct-balance', form(10_00), 'small-then-large');
    expect(small.statusCode, small.body).toBe(200);
    expectRefusal(
      await post(alice, '/api/operations/correct-balance', form(200_00), 'small-then-large'),
      409,
      errorCodes.idempotencyKeyReused,
      'large after small',
    );
    await requested(alice, customer, 200_00, 'large-then-small');
    expectRefusal(
      await post(alice, '/api/operations/correct-balance', form(10_00), 'large-then-small'),
      409,
      errorCodes.idempotencyKeyReused,
      'small after large',
    );
    expect(await balance(customer)).toBe(10_00);
    const rows = await subject.database.db
      .selectFrom('correction_requests')
      .select('amount')
      .where('owner_id', '=', ownerId(customer))
      .execute();
    expect(rows).toEqual([{ amount: 200_00 }]);
  });

  it('answers 404 for a wallet that is not there, and asks nothing', async () => {
    expectRefusal(
      await post(alice, '/api/operations/correct-balance', {
        user_id: 987_654,
        currency: 'CON',
        amount: 200_00,
        reason: 'Nobody',
      }),
      404,
      errorCodes.walletNotFound,
      'no such user',
    );
  });
});

describe('the correction cap', () => {
  it('refuses more than the cap either way with 422 in the envelope, writing nothing', async () => {
    const customer = await signedUp(subject, 'personal');
    for (const amount of [CAP + 1, -(CAP + 1), Number.MAX_SAFE_INTEGER]) {
      const response = await post(alice, '/api/operations/correct-balance', {
        user_id: customer.user.user_id,
        currency: 'CON',
        amount,
        reason: 'Too much',
      });
      expectRefusal(response, 422, errorCodes.correctionOverCap, `amount ${String(amount)}`);
      expect(response.json()).toMatchObject({ errors: [{ field: 'amount' }] });
    }
    expect(await balance(customer)).toBe(0);
    const rows = await subject.database.db
      .selectFrom('correction_requests')
      .select('correction_id')
      .where('owner_id', '=', ownerId(customer))
      .execute();
    expect(rows).toEqual([]);
    // The cap itself goes through, for approval.
    expect((await requested(alice, customer, CAP)).amount).toBe(CAP);
  });
});

describe('approving a correction', () => {
  it('refuses the operator who asked, with 403 and a clear message, and leaves it pending', async () => {
    const customer = await signedUp(subject, 'personal');
    const correction = await requested(alice, customer);
    const response = await approve(alice, correction.correction_id);
    expectRefusal(response, 403, errorCodes.correctionOwnApproval, 'own approval');
    expect(response.json()).toMatchObject({
      message: 'A correction needs another finance operator to approve it; the one who asked cannot',
    });
    expectRefusal(
      await post(alice, '/api/operations/reject-correction', {
        correction_id: correction.correction_id,
        reason: 'Changed my mind',
      }),
      403,
      errorCodes.correctionOwnApproval,
      'own rejection',
    );
    expect(await pendingIds()).toContain(correction.correction_id);
    expect(await balance(customer)).toBe(0);
  });

  it('posts it once when a second operator approves, both steps events with their actors', async () => {
    const customer = await signedUp(subject, 'personal');
    const correction = await requested(alice, customer, 250_00);
    const response = await approve(bob, correction.correction_id, 'approve-1');
    expect(response.statusCode, response.body).toBe(200);
    const decided = correctionDecisionResponse.parse(response.json());
    expect(decided.correction).toMatchObject({
      state: 'approved',
      decided_by: ownerId(bob),
      decided_by_username: bob.user.username,
      tx_id: correctionTransactionId(correction.correction_id),
    });
    expect(decided.transaction).toMatchObject({ amount: 250_00, debit_credit: 'C', state: 'completed' });
    expect(await balance(customer)).toBe(250_00);
    expect(await pendingIds()).not.toContain(correction.correction_id);

    const events = await readStream(subject.database.db, correctionStream(correction.correction_id));
    expect(events.map((event) => [event.type, event.metadata.actor])).toEqual([
      ['CorrectionRequested', ownerId(alice)],
      ['CorrectionApproved', ownerId(bob)],
    ]);
    const [posted] = await readStream(subject.database.db, transactionStream(decided.correction.tx_id ?? ''));
    expect(posted).toMatchObject({
      type: 'BalanceCorrected',
      data: { operatorId: ownerId(bob) },
      metadata: { actor: ownerId(bob) },
    });

    // The same approval again with its key: the first answer, marked as a replay; nothing moves.
    const replay = await approve(bob, correction.correction_id, 'approve-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(correctionDecisionResponse.parse(replay.json())).toEqual(decided);
    // Without the key, or by a third operator: already decided.
    expectRefusal(await approve(bob, correction.correction_id), 422, errorCodes.correctionDecided, 'again');
    expectRefusal(await approve(carol, correction.correction_id), 422, errorCodes.correctionDecided, 'third');
    expect(await balance(customer)).toBe(250_00);
  });

  it('posts once when two operators approve at the same time', async () => {
    const customer = await signedUp(subject, 'personal');
    const corrections = await Promise.all([1, 2, 3].map(() => requested(alice, customer, 150_00)));
    for (const correction of corrections) {
      const answers = await Promise.all([
        approve(bob, correction.correction_id),
        approve(carol, correction.correction_id),
        approve(bob, correction.correction_id, `race-${correction.correction_id}`),
      ]);
      const statuses = answers.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status === 200),
        answers.map((answer) => answer.body).join('\n'),
      ).toHaveLength(1);
      expect(statuses.filter((status) => status === 422)).toHaveLength(2);
    }
    expect(await balance(customer)).toBe(3 * 150_00);
    const posted = await subject.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where(
        'tx_id',
        'in',
        corrections.map((each) => correctionTransactionId(each.correction_id)),
      )
      .execute();
    expect(posted).toHaveLength(3);
  });

  it('refuses a debit over the available balance when asked, with nothing written', async () => {
    const customer = await signedUp(subject, 'personal');
    await fund(subject, ownerId(customer), 150_00);
    const asked = await post(alice, '/api/operations/correct-balance', {
      user_id: customer.user.user_id,
      currency: 'CON',
      amount: -(150_00 + 1),
      reason: 'Refund of a double charge',
    });
    expectRefusal(asked, 422, errorCodes.insufficientFunds, 'amount');
    const asks = await subject.database.db
      .selectFrom('correction_requests')
      .select('correction_id')
      .where('owner_id', '=', ownerId(customer))
      .execute();
    expect(asks).toEqual([]);
    expect(await balance(customer)).toBe(150_00);
  });

  it('leaves a correction the ledger refuses at approval pending, with nothing written, and posts it once it can', async () => {
    const customer = await signedUp(subject, 'personal');
    await fund(subject, ownerId(customer), 200_00);
    const correction = await requested(alice, customer, -200_00);
    // Spent in between: by the approval the wallet no longer covers it.
    const spent = await post(alice, '/api/operations/correct-balance', {
      user_id: customer.user.user_id,
      currency: 'CON',
      amount: -50_00,
      reason: 'Chargeback',
    });
    expect(spent.statusCode, spent.body).toBe(200);
    expectRefusal(await approve(bob, correction.correction_id), 422, errorCodes.insufficientFunds, 'overdraft');
    expect(await pendingIds()).toContain(correction.correction_id);
    expect(await readStream(subject.database.db, correctionStream(correction.correction_id))).toHaveLength(1);

    await fund(subject, ownerId(customer), 300_00);
    const response = await approve(bob, correction.correction_id);
    expect(response.statusCode, response.body).toBe(200);
    expect(await balance(customer)).toBe(250_00);
  });

  it('leaves nothing of an approval that fails at its last step, and posts it once when tried again', async () => {
    const customer = await signedUp(subject, 'personal');
    const correction = await requested(alice, customer, 180_00);
    const id = correction.correction_id;
    // The row's update is the approval's last write, after the ledger's posting and the event: make it fail there.
    await sql`ALTER TABLE correction_requests ADD CONSTRAINT interrupted_approval
      CHECK (state <> 'approved' OR correction_id <> ${sql.lit(id)}) NOT VALID`.execute(subject.database.db);
    try {
      const failed = await approve(bob, id, 'interrupted');
      expect(failed.statusCode, failed.body).toBe(500);
    } finally {
      await sql`ALTER TABLE correction_requests DROP CONSTRAINT interrupted_approval`.execute(subject.database.db);
    }
    expect(await balance(customer)).toBe(0);
    expect(await readStream(subject.database.db, correctionStream(id))).toHaveLength(1);
    expect(await readStream(subject.database.db, transactionStream(correctionTransactionId(id)))).toEqual([]);
    expect(await pendingIds()).toContain(id);

    // The same key again: nothing was claimed, so the approval runs, once.
    const retried = await approve(bob, id, 'interrupted');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(customer)).toBe(180_00);
    expect((await approve(bob, id, 'interrupted')).headers['idempotent-replayed']).toBe('true');
    expect(await balance(customer)).toBe(180_00);
  });

  it('answers 404 for a correction that is not there', async () => {
    expectRefusal(await approve(bob, 'corr_nothing'), 404, errorCodes.correctionNotFound, 'unknown');
  });
});

describe('rejecting a correction', () => {
  it('closes it with the reason and the operator, posting nothing', async () => {
    const customer = await signedUp(subject, 'personal');
    const correction = await requested(alice, customer);
    const response = await post(bob, '/api/operations/reject-correction', {
      correction_id: correction.correction_id,
      reason: 'No double charge found',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(correctionDecisionResponse.parse(response.json())).toMatchObject({
      correction: { state: 'rejected', decided_by: ownerId(bob), decision_reason: 'No double charge found' },
      transaction: null,
    });
    expectRefusal(await approve(carol, correction.correction_id), 422, errorCodes.correctionDecided, 'rejected');
    expect(await balance(customer)).toBe(0);
    const events = await readStream(subject.database.db, correctionStream(correction.correction_id));
    expect(events.map((event) => [event.type, event.metadata.actor])).toEqual([
      ['CorrectionRequested', ownerId(alice)],
      ['CorrectionRejected', ownerId(bob)],
    ]);
  });
});

it('leaves the ledger verifying clean after every request, approval and refusal above', async () => {
  const report = await verifyLedger(subject.database.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
});
