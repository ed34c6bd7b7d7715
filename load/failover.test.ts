import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment, must, request, signUp, sleep, storedCard, type Client, type Member } from './deployment.ts';

/**
 * The product on a real pg_auto_failover formation (a primary and a
 * synchronous secondary): keyed sends from several payers go on while the
 * monitor switches the primary over, and then while the primary is lost
 * whole (keeper and postmaster SIGKILLed) and the secondary promoted. Nothing acknowledged is lost, nothing
 * is applied twice, the API process stays up, says 503 on /api/health while
 * there is no primary, and writes resume on the new one.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PAYERS = 4;
// Enough that no payer runs dry however many sends the faults leave time for (each is at most 0.40 coins).
const FUNDS = 5_000_00;

interface Send {
  key: string;
  amount: number;
  payer: number;
  statuses: number[];
  txId: string | null;
}

let deployment: Deployment;
let api: Member;
let payers: Client[];
let payee: Client & { body: Record<string, unknown> };

beforeAll(async () => {
  deployment = new Deployment(0);
  await deployment.startFormation(6100);
  api = await deployment.add('api', 'api-1');
  await deployment.add('worker', 'worker-1');
  payee = await signUp(api.port, 'personal', 'failover_payee');
  payers = [];
  for (let index = 0; index < PAYERS; index++) {
    const payer = await signUp(api.port, 'personal', `failover_payer_${index}`);
    const cardId = await storedCard(api.port, payer);
    await must('purchase', () =>
      payer.call(api.port, 'POST', '/api/account/purchase', {
        payment_method_id: cardId,
        coin_amt: FUNDS,
        currency: 'USD',
      }),
    );
    payers.push(payer);
  }
}, 240_000);

afterAll(async () => {
  await deployment.stopAll();
}, 60_000);

/** One send, retried with its key on 5xx or a refused connection until answered, as a client following Retry-After. */
async function keyedSend(payer: number, amount: number, sends: Send[]): Promise<void> {
  const record: Send = { key: randomUUID(), amount, payer, statuses: [], txId: null };
  sends.push(record);
  const guserId = (payee.body.user as { guser_id: string }).guser_id;
  for (let attempt = 0; attempt < 120; attempt++) {
    const answer = await payers[payer]!.call(
      api.port,
      'POST',
      '/api/account/send-fund',
      { guser_id: guserId, amount },
      { 'idempotency-key': record.key },
    ).catch(() => null);
    if (answer) record.statuses.push(answer.status);
    if (answer && answer.status < 500 && answer.status !== 409) {
      record.txId = txIdOf(answer.body);
      return;
    }
    await sleep(answer?.status === 503 ? 1_000 : 250);
  }
}

function txIdOf(body: Record<string, unknown>): string | null {
  const data = body.data as Record<string, unknown> | undefined;
  const transaction = (data?.transaction ?? body.transaction) as Record<string, unknown> | undefined;
  const txId = transaction?.tx_id ?? data?.tx_id ?? body.tx_id;
  return typeof txId === 'string' ? txId : null;
}

const balanceOf = async (client: Client) => {
  const answer = await must('balance', () => client.call(api.port, 'GET', '/api/account/balance'));
  return (answer.body.balance as { balance: number }).balance;
};

describe('a switchover and the loss of the primary under keyed sends', () => {
  it('loses nothing, applies nothing twice, says 503 while there is no primary, and writes resume', async () => {
    const sends: Send[] = [];
    const health: number[] = [];
    const run = { switching: true };
    const polling = (async () => {
      while (run.switching) {
        const answer = await request(api.port, 'GET', '/api/health', {}).catch(() => null);
        health.push(answer?.status ?? 0);
        await sleep(100);
      }
    })();
    const sending = Promise.all(
      payers.map(async (_, payer) => {
        while (run.switching) await keyedSend(payer, 1 + Math.floor(Math.random() * 40), sends);
      }),
    );
    await sleep(1_000);
    const switchoverGap = await deployment.writeGapDuring(() => deployment.switchover());
    await sleep(1_000);
    const lossGap = await deployment.writeGapDuring(() => deployment.losePrimary());
    await sleep(2_000);
    run.switching = false;
    await Promise.all([polling, sending]);

    // Every send answered 200, each with one transaction, none refused because of the failover.
    expect(sends.length).toBeGreaterThan(PAYERS);
    expect(sends.filter((send) => send.statuses.at(-1) !== 200)).toEqual([]);
    expect(sends.filter((send) => send.txId === null)).toEqual([]);
    expect(new Set(sends.map((send) => send.txId)).size).toBe(sends.length);
    // Health says 200 or 503 (no primary for a moment) and nothing else; the process never exited.
    expect(health.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(health.at(-1)).toBe(200);
    expect(api.crashes).toBe(0);
    expect(switchoverGap).toBeLessThan(60_000);
    expect(lossGap).toBeLessThan(60_000);
    process.stderr.write(
      `failover: ${sends.length} sends, ${sends.filter((send) => send.statuses.length > 1).length} retried; writes unavailable ${switchoverGap} ms at the switchover, ` +
        `${lossGap} ms at the loss of the primary; ` +
        `health 503 ${health.filter((status) => status === 503).length} of ${health.length} times\n`,
    );

    // Each key replays to the same transaction.
    const guserId = (payee.body.user as { guser_id: string }).guser_id;
    for (const send of sends) {
      const again = await payers[send.payer]!.call(
        api.port,
        'POST',
        '/api/account/send-fund',
        { guser_id: guserId, amount: send.amount },
        { 'idempotency-key': send.key },
      );
      expect(again.status).toBe(200);
      expect(txIdOf(again.body)).toBe(send.txId);
    }

    // Payers and payee match the applied sends to the cent.
    const total = sends.reduce((sum, send) => sum + send.amount, 0);
    expect(await balanceOf(payee)).toBe(total);
    for (const [index, payer] of payers.entries()) {
      const sent = sends.filter((send) => send.payer === index).reduce((sum, send) => sum + send.amount, 0);
      expect(await balanceOf(payer)).toBe(FUNDS - sent);
    }

    // The ledger verifies on the new primary.
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'packages/ledger-store/src/verify-cli.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: deployment.databaseUrl, LOG_LEVEL: 'warn' },
    });
  }, 240_000);
});
