import type { Database } from '@peeks/db';
import { coinsForCash, DEFAULT_RATE_MICROS, userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand, openWallets, type LedgerSettings } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';

export { startFakeEsplora, type FakeEsplora } from './fake-esplora.ts';

export interface TestBitcoinDeposit {
  txId: string;
  address: string;
  sats: number;
  /** The coins the deposit buys, credited when it clears. */
  coins: number;
}

/**
 * A user with a coin wallet who makes bitcoin deposits the way
 * POST /api/account/deposit-coins does: the address row and the ledger's
 * EnterDeposit (with its expiry job) in one transaction. The addresses are
 * made up: the fake Esplora does not care what they encode.
 */
export async function bitcoinDepositor(db: Kysely<Database>, name: string) {
  const user = await db
    .insertInto('users')
    .values({
      username: name,
      email: `${name}@example.com`,
      password_hash: 'x',
      user_type: 'personal',
      perms: [],
      birthday: '1990-01-01',
      country: 'US',
      currency: 'USD',
      terms_accepted: true,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  const ownerId = userOwnerId(user.user_id);
  await openWallets(db, ownerId, { currencies: ['CON'] });
  await db
    .insertInto('bitcoin_keys')
    .values({
      network: 'testnet',
      xpub: `vpub${randomBytes(40).toString('hex')}`,
      generated: false,
      created_at: new Date(),
    })
    .execute();
  const key = await db.selectFrom('bitcoin_keys').select('key_id').orderBy('key_id', 'desc').executeTakeFirstOrThrow();
  let index = 0;

  return {
    ownerId,
    /** A deposit of `usdCents` quoted at `sats`, expiring after `expiresInMs`. */
    async deposit(
      settings: LedgerSettings,
      options: { sats: number; usdCents?: number; expiresInMs?: number },
    ): Promise<TestBitcoinDeposit> {
      const { sats, usdCents = 10_00, expiresInMs = 24 * 3_600_000 } = options;
      const txId = randomUUID();
      const address = `tb1q${randomBytes(19).toString('hex')}`;
      const created = new Date();
      const expiresAt = new Date(created.getTime() + expiresInMs);
      const coins = coinsForCash(usdCents, 'USD', DEFAULT_RATE_MICROS);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('bitcoin_deposits')
          .values({
            tx_id: txId,
            user_id: user.user_id,
            key_id: key.key_id,
            derivation_index: index++,
            address,
            amount_sats: sats,
            usd_cents: usdCents,
            usd_cents_per_btc: Math.round((usdCents * 100_000_000) / sats),
            coins,
            created_at: created,
            expires_at: expiresAt,
          })
          .execute();
        await executeLedgerCommand(
          trx,
          {
            type: 'EnterDeposit',
            txId,
            ownerId,
            method: 'bitcoin',
            payment: { amount: usdCents, currency: 'USD' },
            rateMicros: DEFAULT_RATE_MICROS,
            reference: address,
            expiresAt: expiresAt.toISOString(),
          },
          settings,
        );
      });
      return { txId, address, sats, coins };
    },
  };
}
