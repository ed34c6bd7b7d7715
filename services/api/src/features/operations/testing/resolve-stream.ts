import { connectDatabase } from '@peeks/db';
import { sql } from 'kysely';
import { TESTNET_REFUND_ADDRESS } from '../../../testing/operations.ts';
import { resolveBitcoinDeposit } from '../bitcoin-resolution.ts';

/**
 * The child of bitcoin-resolution.crash.test.ts: resolves the flagged
 * bitcoin deposits named on stdin's first line (space-separated ids), even
 * ones credited and odd ones refunded, four at a time, until SIGKILLed.
 *
 *   DATABASE_URL=postgres://… node resolve-stream.ts < ids
 *
 * Each resolution runs in a transaction that then waits 20 ms before it
 * commits, so a kill most often lands after every step of a resolution is
 * written and before any of it is committed. It prints `resolved <id>`
 * after each commit, and ends when stdin closes.
 */

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('usage: DATABASE_URL=… node resolve-stream.ts < ids');
  process.exit(2);
}
const { db } = connectDatabase(url, { max: 4, applicationName: 'peeks-crash-resolve-stream' });

let input = '';
process.stdin.on('data', (chunk: Buffer) => {
  input += chunk.toString();
  const newline = input.indexOf('\n');
  if (newline >= 0) void resolveAll(input.slice(0, newline).split(' ').filter(Boolean));
});
process.stdin.on('end', () => process.exit(0));

async function resolveAll(ids: string[]): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < ids.length) {
      const index = next++;
      const txId = ids[index] ?? '';
      await db.transaction().execute(async (trx) => {
        await resolveBitcoinDeposit(trx, {
          request:
            index % 2 === 0
              ? { tx_id: txId, resolution: 'credit', reason: 'crash test' }
              : { tx_id: txId, resolution: 'refund', refund_address: TESTNET_REFUND_ADDRESS, reason: 'crash test' },
          operator: 'user-1',
          network: 'testnet',
          settings: { holdHours: 24 },
          metadata: { actor: 'user-1' },
          now: new Date(),
        });
        await sql`SELECT pg_sleep(0.02)`.execute(trx);
      });
      process.stdout.write(`resolved ${txId}\n`);
    }
  };
  try {
    await Promise.all([loop(), loop(), loop(), loop()]);
    process.stdout.write('done\n');
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
