import type { Database, StoredEvent } from '@peeks/db';
import {
  coinChangesOf,
  balanceChangesOf,
  saleReturnOf,
  ledgerEntriesOf,
  type TransactionEvent,
  type TransactionRecord,
  type WalletEvent,
} from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';

export type StoredTransactionEvent = StoredEvent<TransactionEvent['type']> & TransactionEvent;
export type StoredWalletEvent = StoredEvent<WalletEvent['type']> & WalletEvent;

/** The read-model row of a transaction record. */
export function transactionRow(record: TransactionRecord) {
  return {
    tx_id: record.txId,
    type: record.type,
    state: record.state,
    tx_class: record.txClass,
    entry_date: record.entryDate,
    updated_at: record.updatedAt,
    amount: record.amount,
    fee: record.fee,
    currency: record.currency,
    payer_owner_id: record.payerOwnerId,
    payer_wallet_id: record.payerWalletId,
    payee_owner_id: record.payeeOwnerId,
    payee_wallet_id: record.payeeWalletId,
    merchant_id: record.merchantId,
    merchant_batch_id: record.merchantBatchId,
    payment_method_id: record.paymentMethodId,
    payment_method_type: record.paymentMethodType,
    reference: record.reference,
    reason: record.reason,
    hold_amount: record.holdAmount,
    hold_release_at: record.holdReleaseAt,
    hold_released_at: record.holdReleasedAt,
    expires_at: record.expiresAt,
    reserved_coins: record.reservedCoins,
    version: record.version,
    parent_tx_id: record.parentTxId,
    payment: record.payment,
    // A sale's returns are added to its row by their own commits (saleReturn below), never written whole.
    returned_amount: 0,
    return_date: null,
  };
}

/**
 * What one event does to the ledger's read models, as an element of the
 * `project_ledger_events` SQL function's argument: balance changes, the
 * transaction row, ledger entries, coin rows, and what a return adds to its sale. The verify rebuild writes
 * it event by event through that function; the live commit folds a batch's
 * projections into the rows they leave (commit-batch.ts), so that verify
 * compares two computations. The coin audit is not stored: it is derived
 * from the events (see queries.ts). Its times are ISO text, as JSON has
 * them: a Date's toJSON takes JSON.stringify off its fast path for the
 * whole batch.
 */
export function projectionOf(event: TransactionEvent, createdAt: Date, record: TransactionRecord) {
  const coins = coinChangesOf(event.data.txId, event.data.coins);
  const saleReturn = saleReturnOf(event, record);
  const at = createdAt.toISOString();
  return {
    balances: balanceChangesOf(event).map(([walletId, change]) => ({ wallet_id: walletId, ...change })),
    transaction: transactionRow(record),
    entries: ledgerEntriesOf(event, createdAt).map((entry) => ({
      tx_id: entry.txId,
      account_id: entry.accountId,
      entry_date: at,
      type: entry.type,
      amount: entry.amount,
      currency: entry.currency,
      debit_credit: entry.debitCredit,
    })),
    coinsCreated: coins.created.map((coin) => ({
      serial: coin.serial,
      holder: coin.holder,
      value: coin.value,
      status: coin.status,
      parent_serial: coin.parentSerial,
      minted_tx_id: coin.mintedTxId,
      matures_at: coin.maturesAt,
    })),
    coinsUpdated: coins.updated,
    // A refused card refund takes its amount off the sale and leaves the date of the sale's last return.
    saleReturn: saleReturn && {
      sale_tx_id: saleReturn.saleTxId,
      amount: saleReturn.amount,
      return_date: saleReturn.made ? at : null,
    },
  };
}

export type EventProjection = ReturnType<typeof projectionOf>;

/**
 * Projects a stored event into the tables search_path names first: `public`
 * normally, a scratch schema during a rebuild (see verify).
 */
export async function projectTransactionEvent(
  db: Kysely<Database>,
  event: StoredTransactionEvent,
  record: TransactionRecord,
): Promise<void> {
  await sql`SELECT project_ledger_events(ARRAY[${event.position}]::bigint[], ${JSON.stringify([projectionOf(event, event.createdAt, record)])}::jsonb)`.execute(
    db,
  );
}

export async function projectWalletEvent(db: Kysely<Database>, event: StoredWalletEvent): Promise<void> {
  if (event.type === 'WalletOpened') {
    const { walletId, ownerId, currency } = event.data;
    await sql`
      INSERT INTO wallets (wallet_id, owner_id, currency, status, opened_at) VALUES (${walletId}, ${ownerId}, ${currency}, 'open', ${event.createdAt})
    `.execute(db);
  } else {
    await sql`UPDATE wallets SET status = 'closed', version = version + 1 WHERE wallet_id = ${event.data.walletId}`.execute(
      db,
    );
  }
}
