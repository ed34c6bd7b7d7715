import {
  checkpointResponse,
  consistencyProofResponse,
  inclusionProofResponse,
  ledgerLogStatusResponse,
  logKeyResponse,
} from '@peeks/contracts';
import { readStream } from '@peeks/db';
import { transactionStream } from '@peeks/ledger';
import {
  leafHash,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  verifyConsistency,
  verifyInclusion,
} from '@peeks/log-verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedUp, signedUpOperator, type SignedIn, type TestApp } from '../../testing/index.ts';
import { sequencedAndSigned, TEST_LOG_KEY } from '../../testing/ledger-log.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { paidByOwner } from '../../testing/wallet.ts';

const decode = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'base64'));

let subject: TestApp;
let alice: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  subject = await createTestApp();
  alice = await signedUp(subject, 'personal');
  bob = await signedUp(subject, 'personal');
});
afterAll(() => subject.close());

/** The newest checkpoint as an outsider checks it: signed by the published key, of the published log. */
async function checkedCheckpoint(browser: SignedIn['browser']) {
  const keyAnswer = await browser.get('/api/ledger/log-key');
  expect(keyAnswer.statusCode).toBe(200);
  const key = parseVerifierKey(logKeyResponse.parse(keyAnswer.json()).vkey);
  const answer = await browser.get('/api/ledger/checkpoint');
  expect(answer.statusCode).toBe(200);
  const checkpoint = parseCheckpoint(openNote(checkpointResponse.parse(answer.json()).checkpoint, key));
  expect(checkpoint.origin).toBe(key.name);
  return checkpoint;
}

describe('the ledger log over HTTP, checked independently', () => {
  it('proves one’s own send is in a signed checkpoint, and a later checkpoint extends the earlier', async () => {
    const txId = await paidByOwner(alice, subject);
    const size = await sequencedAndSigned(subject);
    const first = await checkedCheckpoint(alice.browser);
    expect(first.treeSize).toBe(size);

    const answer = await alice.browser.get(`/api/ledger/proof/inclusion?tx_id=${txId}&tree_size=${first.treeSize}`);
    expect(answer.statusCode).toBe(200);
    const proof = inclusionProofResponse.parse(answer.json());
    const [made] = await readStream(subject.database.db, transactionStream(txId), { maxCount: 1 });
    expect(proof.leaf_data).toBe(made?.hash);
    expect(() => {
      verifyInclusion(
        proof.leaf_index,
        proof.tree_size,
        leafHash(Buffer.from(proof.leaf_data, 'hex')),
        decode(proof.proof),
        first.rootHash,
      );
    }).not.toThrow();

    await paidByOwner(bob, subject);
    await sequencedAndSigned(subject);
    const second = await checkedCheckpoint(bob.browser);
    expect(second.treeSize).toBeGreaterThan(first.treeSize);
    const consistency = await bob.browser.get(
      `/api/ledger/proof/consistency?from=${first.treeSize}&to=${second.treeSize}`,
    );
    expect(consistency.statusCode).toBe(200);
    const hashes = decode(consistencyProofResponse.parse(consistency.json()).proof);
    expect(() => {
      verifyConsistency(first.treeSize, second.treeSize, hashes, first.rootHash, second.rootHash);
    }).not.toThrow();
  });

  it("refuses another person's transaction, and lets an operator prove anyone's", async () => {
    const txId = await paidByOwner(alice, subject);
    const size = await sequencedAndSigned(subject);
    const url = `/api/ledger/proof/inclusion?tx_id=${txId}&tree_size=${size}`;
    expectRefusal(await bob.browser.get(url), 404, 40402);
    const operator = await signedUpOperator(subject);
    expect((await operator.browser.get(url)).statusCode).toBe(200);
    expectRefusal(await operator.browser.get(`/api/ledger/proof/inclusion?tx_id=nope&tree_size=${size}`), 404, 40402);
  });

  it('says when the log is not that large, or the transaction not in it yet', async () => {
    const size = await sequencedAndSigned(subject);
    const txId = await paidByOwner(alice, subject);
    expectRefusal(await alice.browser.get(`/api/ledger/proof/inclusion?tx_id=${txId}&tree_size=${size}`), 422, 42295);
    expectRefusal(
      await alice.browser.get(`/api/ledger/proof/inclusion?tx_id=${txId}&tree_size=${size + 1000}`),
      422,
      42294,
    );
    expectRefusal(await alice.browser.get(`/api/ledger/proof/consistency?from=2&to=1`), 400, 4002);
    expectRefusal(await alice.browser.get(`/api/ledger/proof/consistency?from=1&to=${size + 1000}`), 422, 42294);
    expectRefusal(await alice.browser.get(`/api/ledger/proof/consistency?from=0&to=1`), 400, 4002);
  });

  it('hands out the verifier key to anyone, and the checkpoint only to the signed in', async () => {
    const stranger = await subject.browser();
    const key = await stranger.get('/api/ledger/log-key');
    expect(logKeyResponse.parse(key.json()).vkey).toBe(TEST_LOG_KEY.vkey);
    expectRefusal(await stranger.get('/api/ledger/checkpoint'), 401, 40100);
  });

  it("shows an operator the log's size, lag, checkpoints and witnesses; nobody else", async () => {
    const operator = await signedUpOperator(subject);
    await paidByOwner(alice, subject);
    const size = await sequencedAndSigned(subject);
    await subject.database.db
      .insertInto('ledger_log_witnesses')
      .values({
        witness: 'url',
        tree_size: size,
        attempted_at: new Date(),
        delivered: false,
        error: 'the witness answered 503',
      })
      .execute();
    expectRefusal(await alice.browser.get('/api/operations/ledger-log'), 403, 40360);
    const answer = await operator.browser.get('/api/operations/ledger-log');
    expect(answer.statusCode).toBe(200);
    const status = ledgerLogStatusResponse.parse(answer.json());
    expect(status).toMatchObject({ vkey: TEST_LOG_KEY.vkey, unsequenced_events: 0, lag_seconds: 0 });
    expect(status.tree_size).toBe(size);
    expect(status.checkpoints[0]?.tree_size).toBe(size);
    expect(status.witnesses).toEqual([
      expect.objectContaining({ witness: 'url', tree_size: size, delivered: false, error: 'the witness answered 503' }),
    ]);
  });
});
