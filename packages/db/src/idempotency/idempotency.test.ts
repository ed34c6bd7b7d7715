import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import { createTestDatabase, type TestDatabase } from '../testing/database.ts';
import { IdempotencyKeyReused, expireIdempotencyKeys, fingerprintRequest, runIdempotently } from './idempotency.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
});
afterAll(() => database.drop());

let counter = 0;
const sendFund = (amount: number) =>
  fingerprintRequest({
    method: 'POST',
    path: '/api/account/send-fund',
    body: { guser_id: 'u-2', amount, currency: 'CON' },
  });

/** A money movement guarded by a key: one event appended to the payer's stream per real execution. */
function sendOnce(streamId: string, key: string, amount: number, scope = 'user-1') {
  return runIdempotently(database.db, { scope, key, fingerprint: sendFund(amount) }, async (trx) => {
    const { version } = await appendToStream(trx, streamId, [{ type: 'FundsSent', data: { amount } }], {
      expectedVersion: 'any',
      metadata: { idempotencyKey: key },
    });
    return { statusCode: 200, body: { response: 'success', version } };
  });
}

describe('fingerprintRequest', () => {
  it('ignores key order but not values', () => {
    const a = fingerprintRequest({ method: 'POST', path: '/p', body: { a: 1, b: 2 } });
    expect(fingerprintRequest({ path: '/p', method: 'POST', body: { b: 2, a: 1 } })).toBe(a);
    expect(fingerprintRequest({ method: 'POST', path: '/p', body: { a: 1, b: 3 } })).not.toBe(a);
  });
});

describe('runIdempotently', () => {
  it('returns the first response to a retry and moves nothing twice', async () => {
    const streamId = `payer-${++counter}`;
    const first = await sendOnce(streamId, 'key-a', 500);
    const retry = await sendOnce(streamId, 'key-a', 500);
    expect(first).toEqual({ statusCode: 200, body: { response: 'success', version: 1 }, replayed: false });
    expect(retry).toEqual({ ...first, replayed: true });
    expect(await readStream(database.db, streamId)).toHaveLength(1);
  });

  it('refuses the same key with a different request', async () => {
    const streamId = `payer-${++counter}`;
    await sendOnce(streamId, 'key-b', 500);
    await expect(sendOnce(streamId, 'key-b', 501)).rejects.toBeInstanceOf(IdempotencyKeyReused);
    expect(await readStream(database.db, streamId)).toHaveLength(1);
  });

  it('keeps keys of different scopes apart', async () => {
    const streamId = `payer-${++counter}`;
    await sendOnce(streamId, 'shared-key', 500, 'user-1');
    const other = await sendOnce(streamId, 'shared-key', 700, 'user-2');
    expect(other.replayed).toBe(false);
    expect(await readStream(database.db, streamId)).toHaveLength(2);
  });

  it('runs concurrent duplicates once, and answers all of them alike', async () => {
    const streamId = `payer-${++counter}`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => sendOnce(streamId, 'key-c', 250)));
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(await readStream(database.db, streamId)).toHaveLength(1);
  });

  it('leaves no claim when the work fails, so a retry runs it', async () => {
    const streamId = `payer-${++counter}`;
    const failing = runIdempotently(
      database.db,
      { scope: 'user-1', key: 'key-d', fingerprint: sendFund(100) },
      async (trx) => {
        await appendToStream(trx, streamId, [{ type: 'FundsSent', data: { amount: 100 } }], { expectedVersion: 0 });
        throw new Error('crashed between append and response');
      },
    );
    await expect(failing).rejects.toThrow('crashed between append and response');
    expect(await readStream(database.db, streamId)).toHaveLength(0);

    const retry = await sendOnce(streamId, 'key-d', 100);
    expect(retry.replayed).toBe(false);
    expect(await readStream(database.db, streamId)).toHaveLength(1);
  });

  it('forgets keys older than the cut-off', async () => {
    const streamId = `payer-${++counter}`;
    await sendOnce(streamId, 'key-e', 100);
    expect(await expireIdempotencyKeys(database.db, new Date(Date.now() - 60_000))).toBe(0);
    expect(await expireIdempotencyKeys(database.db, new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    expect((await sendOnce(streamId, 'key-e', 100)).replayed).toBe(false);
  });
});
