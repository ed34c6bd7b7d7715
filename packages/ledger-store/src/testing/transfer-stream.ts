import { randomInt, randomUUID } from 'node:crypto';
import { connectDatabase } from '@peeks/db';
import { LedgerRuleViolation, type LedgerCommand } from '@peeks/ledger';
import { executeLedgerCommand, type LedgerSettings } from '../index.ts';

/**
 * The child of the crash test (crash.test.ts): money moving without end
 * between the owners `crash-0` … `crash-<n-1>`, which the parent has opened
 * and funded, until someone SIGKILLs it.
 *
 *   DATABASE_URL=postgres://… node transfer-stream.ts <owner count>
 *
 * Eight loops run side by side: mostly P2P transfers (some with a fee), now
 * and then a withdrawal requested and, as a separate command, processed or
 * failed, so a kill may land between the two, and a sale to the merchant
 * `crash-merchant` followed by two returns of parts of it at once. Refusals (insufficient funds,
 * nothing withdrawable) are part of the traffic and skipped. Every 20
 * commits it prints `committed <n>`; anything else going wrong is printed
 * to stderr and ends the process with 1. It also stops when its stdin
 * closes (the parent must pipe it), so a parent that dies does not leave
 * it running.
 */

const crashOwnerId = (index: number) => `crash-${index}`;
/** The merchant every sale goes to; the parent opens its wallet. */
const CRASH_MERCHANT = 'crash-merchant';

const LOOPS = 8;
const REPORT_EVERY = 20;

const url = process.env.DATABASE_URL;
const owners = Number(process.argv[2]);
if (!url || !Number.isInteger(owners) || owners < 2) {
  console.error('usage: DATABASE_URL=… node transfer-stream.ts <owner count ≥ 2>');
  process.exit(2);
}

const { db } = connectDatabase(url, { max: LOOPS, applicationName: 'peeks-crash-transfer-stream' });
const settings: LedgerSettings = { holdHours: 24 };
let committed = 0;

async function commit(command: LedgerCommand): Promise<boolean> {
  try {
    await executeLedgerCommand(db, command, settings);
  } catch (error) {
    if (error instanceof LedgerRuleViolation) return false;
    throw error;
  }
  committed += 1;
  if (committed % REPORT_EVERY === 0) process.stdout.write(`committed ${committed}\n`);
  return true;
}

const anyOwner = () => crashOwnerId(randomInt(owners));

async function transfer(): Promise<void> {
  const fromOwnerId = anyOwner();
  let toOwnerId = anyOwner();
  while (toOwnerId === fromOwnerId) toOwnerId = anyOwner();
  const fee = randomInt(5) === 0 ? randomInt(1, 101) : 0;
  await commit({
    type: 'Transfer',
    txId: randomUUID(),
    kind: 'P2P',
    fromOwnerId,
    toOwnerId,
    amount: randomInt(1, 50_001),
    fee,
    currency: 'CON',
    memo: null,
  });
}

async function withdrawal(): Promise<void> {
  const txId = randomUUID();
  const requested = await commit({
    type: 'RequestWithdrawal',
    txId,
    ownerId: anyOwner(),
    amount: randomInt(1, 20_001),
    currency: 'CON',
    destination: { kind: 'card', paymentMethodId: 'pm-crash' },
  });
  if (!requested) return;
  await commit(
    randomInt(4) === 0
      ? { type: 'FailWithdrawal', txId, reason: 'card declined' }
      : { type: 'ProcessWithdrawal', txId, payoutReference: `payout-${txId}` },
  );
}

async function saleAndReturns(): Promise<void> {
  const txId = randomUUID();
  const amount = randomInt(2, 30_001);
  const sold = await commit({
    type: 'Transfer',
    txId,
    kind: 'PURCHASE',
    fromOwnerId: anyOwner(),
    toOwnerId: CRASH_MERCHANT,
    amount,
    fee: 0,
    currency: 'CON',
    memo: null,
  });
  if (!sold) return;
  // Together they may ask for more than the sale: the ledger gives at most what is left.
  const part = () =>
    commit({
      type: 'ReturnSale',
      txId: randomUUID(),
      saleTxId: txId,
      merchantOwnerId: CRASH_MERCHANT,
      amount: randomInt(1, amount),
      reason: 'crash test',
      cardCharge: null,
    });
  await Promise.all([part(), part()]);
}

async function loop(): Promise<never> {
  for (;;) {
    const pick = randomInt(10);
    await (pick === 0 ? withdrawal() : pick === 1 ? saleAndReturns() : transfer());
  }
}

process.stdin.on('end', () => process.exit(0)).resume();

await Promise.all(Array.from({ length: LOOPS }, loop)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
