import { schemaColumns, type Database, type StoredEvent } from '@peeks/db';
import {
  coinAuditOf,
  coinChangesOf,
  balanceChangesOf,
  ledgerEntriesOf,
  type TransactionEvent,
  type TransactionRecord,
  type WalletEvent,
} from '@peeks/ledger';
import { sql, type Kysely } from 'kysely';

/**
 * Writes what one event does to the ledger's read models. The live path
 * projects into `public` inside the appending transaction; the rebuild
 * projects the whole log into a scratch schema with the same code, which
 * is why the schema is a parameter.
 */
export type ProjectionSchema = string;

const table = (schema: ProjectionSchema, name: keyof Database) => sql.table(`${schema}.${name}`);

export type StoredTransactionEvent = StoredEvent<TransactionEvent['type']> & TransactionEvent;
export type StoredWalletEvent = StoredEvent<WalletEvent['type']> & WalletEvent;

const transactionColumns = schemaColumns.ledger_transactions.filter((column) => column !== 'tx_id');

/** The read-model row of a transaction record. */
export function transactionRow(record: TransactionRecord) {
  return {
    tx_id: record.txId, type: record.type, state: record.state, tx_class: record.txClass,
    entry_date: record.entryDate, updated_at: record.updatedAt, amount: record.amount, fee: record.fee, currency: record.currency,
    payer_owner_id: record.payerOwnerId, payer_wallet_id: record.payerWalletId,
    payee_owner_id: record.payeeOwnerId, payee_wallet_id: record.payeeWalletId,
    merchant_id: record.merchantId, merchant_batch_id: record.merchantBatchId,
    payment_method_id: record.paymentMethodId, payment_method_type: record.paymentMethodType,
    reference: record.reference, reason: record.reason,
    hold_amount: record.holdAmount, hold_release_at: record.holdReleaseAt, hold_released_at: record.holdReleasedAt,
    expires_at: record.expiresAt, reserved_coins: record.reservedCoins, version: record.version,
  };
}

/**
 * One statement for the whole event (one round trip): balance changes,
 * the transaction row, ledger entries, coin rows and the coin audit trail.
 * Rows travel as JSON and are read with the target table's own row type.
 */
export async function projectTransactionEvent(
  db: Kysely<Database>,
  schema: ProjectionSchema,
  event: StoredTransactionEvent,
  record: TransactionRecord,
): Promise<void> {
  const changes = balanceChangesOf(event);
  const coins = coinChangesOf(event.data.txId, event.data.coins);
  const entries = ledgerEntriesOf(event, event.position, event.createdAt).map((entry) => ({
    ledger_id: entry.ledgerId, tx_id: entry.txId, account_id: entry.accountId, entry_date: entry.entryDate, type: entry.type,
    amount: entry.amount, currency: entry.currency, debit_credit: entry.debitCredit, event_position: entry.eventPosition,
  }));
  const audit = coinAuditOf(event, event.position, event.createdAt).map((entry) => ({
    audit_id: entry.auditId, tx_id: entry.txId, event_position: entry.eventPosition, serial: entry.serial, action: entry.action,
    value: entry.value, from_account: entry.fromAccount, to_account: entry.toAccount, parent_serial: entry.parentSerial, entry_date: entry.entryDate,
  }));
  const created = coins.created.map((coin) => ({
    serial: coin.serial, holder: coin.holder, value: coin.value, status: coin.status, parent_serial: coin.parentSerial, minted_tx_id: coin.mintedTxId,
  }));
  const transactions = table(schema, 'ledger_transactions');
  const coinTable = table(schema, 'coins');

  const { rows } = await sql<{ wallets: number; coins: number }>`
    WITH balances AS (
      UPDATE ${table(schema, 'wallets')} AS w SET
        total = w.total + c.total,
        available = w.available + c.available,
        reserved = w.reserved + c.reserved,
        withdrawable = LEAST(w.withdrawable + c.withdrawable, w.available + c.available)
      FROM unnest(
        ${changes.map(([walletId]) => walletId)}::text[],
        ${changes.map(([, change]) => change.total)}::bigint[],
        ${changes.map(([, change]) => change.available)}::bigint[],
        ${changes.map(([, change]) => change.withdrawable)}::bigint[],
        ${changes.map(([, change]) => change.reserved)}::bigint[]
      ) AS c(wallet_id, total, available, withdrawable, reserved)
      WHERE w.wallet_id = c.wallet_id
      RETURNING w.wallet_id
    ), transaction_row AS (
      INSERT INTO ${transactions} SELECT * FROM json_populate_record(NULL::${transactions}, ${JSON.stringify(transactionRow(record))}::json)
      ON CONFLICT (tx_id) DO UPDATE SET (${sql.join(transactionColumns.map((column) => sql.ref(column)))})
        = (${sql.join(transactionColumns.map((column) => sql.ref(`excluded.${column}`)))})
    ), entries AS (
      INSERT INTO ${table(schema, 'ledger_entries')}
      SELECT * FROM json_populate_recordset(NULL::${table(schema, 'ledger_entries')}, ${JSON.stringify(entries)}::json)
    ), new_coins AS (
      INSERT INTO ${coinTable} SELECT * FROM json_populate_recordset(NULL::${coinTable}, ${JSON.stringify(created)}::json)
    ), changed_coins AS (
      UPDATE ${coinTable} AS coin SET holder = change.holder, status = change.status
      FROM json_populate_recordset(NULL::${coinTable}, ${JSON.stringify(coins.updated)}::json) AS change
      WHERE coin.serial = change.serial
      RETURNING coin.serial
    ), audit AS (
      INSERT INTO ${table(schema, 'coin_audit')}
      SELECT * FROM json_populate_recordset(NULL::${table(schema, 'coin_audit')}, ${JSON.stringify(audit)}::json)
    )
    SELECT (SELECT count(*) FROM balances)::int AS wallets, (SELECT count(*) FROM changed_coins)::int AS coins
  `.execute(db);

  // Every wallet and coin an event names exists, because it was decided
  // against them under lock. A mismatch is a bug: fail, and roll back.
  const written = rows[0];
  if (written?.wallets !== changes.length || written.coins !== coins.updated.length) {
    throw new Error(`projecting ${event.type} of ${event.data.txId} touched ${written?.wallets} of ${changes.length} wallets and ${written?.coins} of ${coins.updated.length} coins`);
  }
}

export async function projectWalletEvent(db: Kysely<Database>, schema: ProjectionSchema, event: StoredWalletEvent): Promise<void> {
  const wallets = table(schema, 'wallets');
  if (event.type === 'WalletOpened') {
    const { walletId, ownerId, currency } = event.data;
    await sql`
      INSERT INTO ${wallets} (wallet_id, owner_id, currency, status, opened_at) VALUES (${walletId}, ${ownerId}, ${currency}, 'open', ${event.createdAt})
    `.execute(db);
  } else {
    await sql`UPDATE ${wallets} SET status = 'closed' WHERE wallet_id = ${event.data.walletId}`.execute(db);
  }
}
