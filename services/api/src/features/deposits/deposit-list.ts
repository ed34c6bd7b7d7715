import { DEPOSIT_LIST_LIMIT, type DepositStatus, type DepositSummary } from '@peeks/contracts';
import type { BitcoinWatchState, Database } from '@peeks/db';
import type { Kysely } from 'kysely';

/** A ledger transaction's state and the watcher's (bitcoin only), as the pending-deposits view words it. */
export function depositStatus(
  ledgerState: string,
  watch: { state: BitcoinWatchState; confirmations: number | null } | null,
): DepositStatus {
  if (watch?.state === 'flagged') return 'flagged';
  switch (ledgerState) {
    case 'completed':
      return 'cleared';
    case 'rejected':
      return 'rejected';
    case 'expired':
      return 'expired';
  }
  if (watch?.state === 'processing') return (watch.confirmations ?? 0) > 0 ? 'confirming' : 'seen';
  return 'waiting';
}

/**
 * The e-mail-transfer and bitcoin deposits paid into `ownerId`'s wallet,
 * newest first; with `txIds`, only those (the live feed's read after a
 * commit). Scoped by the ledger's payee, so another owner's deposit is
 * simply not there.
 */
export async function depositsOf(
  db: Kysely<Database>,
  ownerId: string,
  txIds?: readonly string[],
): Promise<DepositSummary[]> {
  if (txIds?.length === 0) return [];
  const rows = await db
    .selectFrom('ledger_transactions as t')
    .leftJoin('deposit_instructions as e', 'e.tx_id', 't.tx_id')
    .leftJoin('bitcoin_deposits as b', 'b.tx_id', 't.tx_id')
    .select([
      't.tx_id',
      't.state',
      't.entry_date',
      'e.method',
      'e.amount as email_amount',
      'e.currency as email_currency',
      'e.coin_estimate',
      'e.reference',
      'b.address',
      'b.amount_sats',
      'b.usd_cents',
      'b.coins',
      'b.expires_at',
      'b.watch_state',
      'b.received_sats',
      'b.confirmations',
      'b.flag',
    ])
    .where('t.payee_owner_id', '=', ownerId)
    .where((eb) => eb.or([eb('e.tx_id', 'is not', null), eb('b.tx_id', 'is not', null)]))
    .$if(txIds !== undefined, (query) => query.where('t.tx_id', 'in', txIds ?? []))
    .orderBy('t.entry_date', 'desc')
    .orderBy('t.tx_id', 'desc')
    .limit(DEPOSIT_LIST_LIMIT)
    .execute();
  return rows.map((row): DepositSummary => {
    const bitcoin =
      row.address === null || row.watch_state === null
        ? null
        : {
            address: row.address,
            amount_sats: row.amount_sats ?? 0,
            received_sats: row.received_sats ?? 0,
            confirmations: row.confirmations,
            flag: row.flag,
          };
    return {
      tx_id: row.tx_id,
      method: bitcoin ? 'bitcoin' : (row.method ?? 'interac'),
      status: depositStatus(
        row.state,
        row.watch_state === null ? null : { state: row.watch_state, confirmations: row.confirmations },
      ),
      amount: bitcoin ? (row.usd_cents ?? 0) : (row.email_amount ?? 0),
      currency: bitcoin ? 'USD' : (row.email_currency ?? 'USD'),
      coins: bitcoin ? (row.coins ?? 0) : (row.coin_estimate ?? 0),
      reference: bitcoin ? bitcoin.address : (row.reference ?? ''),
      created_at: row.entry_date.toISOString(),
      expires_at: row.expires_at?.toISOString() ?? null,
      bitcoin,
    };
  });
}
