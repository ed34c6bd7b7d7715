import type { ColumnType, Generated } from 'kysely';

/**
 * The kysely view of the schema that `migrations/` builds. `schemaColumns`
 * below lists the same columns at run time, and a test compares it with the
 * migrated database, so the two cannot drift apart unnoticed.
 */
export interface Database {
  streams: StreamsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  wallets: WalletsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  coins: CoinsTable;
  coin_audit: CoinAuditTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  platform_balances: PlatformBalancesTable;
}

export interface StreamsTable {
  stream_id: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface EventsTable {
  position: Generated<number>;
  stream_id: string;
  stream_version: number;
  type: string;
  data: ColumnType<unknown, string, never>;
  metadata: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date, never>;
  /** `xid8`, kept as its decimal text: compare it in SQL, not in JavaScript. */
  transaction_id: Generated<string>;
  prev_hash: string;
  hash: string;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null, string>;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

export interface WalletsTable {
  wallet_id: string;
  owner_id: string;
  currency: string;
  status: string;
  total: number;
  available: number;
  withdrawable: number;
  reserved: number;
  opened_at: Date;
  /** Bumped by every event that touches the wallet; a commit checks the version it decided against. */
  version: Generated<number>;
}

export interface LedgerTransactionsTable {
  tx_id: string;
  type: string;
  state: string;
  tx_class: string;
  entry_date: Date;
  updated_at: Date;
  amount: number;
  fee: number;
  currency: string;
  payer_owner_id: string | null;
  payer_wallet_id: string | null;
  payee_owner_id: string | null;
  payee_wallet_id: string | null;
  merchant_id: string | null;
  merchant_batch_id: string | null;
  payment_method_id: string | null;
  payment_method_type: string | null;
  reference: string | null;
  reason: string | null;
  hold_amount: number | null;
  hold_release_at: Date | null;
  hold_released_at: Date | null;
  expires_at: Date | null;
  reserved_coins: ColumnType<unknown, string, string>;
  version: number;
}

export interface LedgerEntriesTable {
  ledger_id: string;
  tx_id: string;
  account_id: string;
  entry_date: Date;
  type: string;
  amount: number;
  currency: string;
  debit_credit: string;
  event_position: number;
}

export interface CoinsTable {
  serial: string;
  holder: string;
  value: number;
  status: string;
  parent_serial: string | null;
  minted_tx_id: string;
}

export interface CoinAuditTable {
  audit_id: string;
  tx_id: string;
  event_position: number;
  serial: string;
  action: string;
  value: number;
  from_account: string | null;
  to_account: string | null;
  parent_serial: string | null;
  entry_date: Date;
}

export interface ProjectionCheckpointsTable {
  name: string;
  /** `xid8` as decimal text, like events.transaction_id. */
  transaction_id: string;
  position: number;
  updated_at: Date;
}

export interface PlatformBalancesTable {
  account_id: string;
  currency: string;
  balance: number;
  entries: number;
}

type Columns<Table> = readonly (keyof Table & string)[];
type ExactlyAll<Table, List extends Columns<Table>> =
  Exclude<keyof Table, List[number]> extends never ? List : ['missing columns', Exclude<keyof Table, List[number]>];

function columnsOf<Table>() {
  return <const List extends Columns<Table>>(list: ExactlyAll<Table, List>) => list;
}

export const schemaColumns = {
  streams: columnsOf<StreamsTable>()(['stream_id', 'created_at']),
  events: columnsOf<EventsTable>()([
    'position', 'stream_id', 'stream_version', 'type', 'data', 'metadata', 'created_at', 'transaction_id', 'prev_hash', 'hash',
  ]),
  idempotency_keys: columnsOf<IdempotencyKeysTable>()([
    'scope', 'key', 'fingerprint', 'status_code', 'response', 'created_at', 'completed_at',
  ]),
  wallets: columnsOf<WalletsTable>()([
    'wallet_id', 'owner_id', 'currency', 'status', 'total', 'available', 'withdrawable', 'reserved', 'opened_at', 'version',
  ]),
  ledger_transactions: columnsOf<LedgerTransactionsTable>()([
    'tx_id', 'type', 'state', 'tx_class', 'entry_date', 'updated_at', 'amount', 'fee', 'currency',
    'payer_owner_id', 'payer_wallet_id', 'payee_owner_id', 'payee_wallet_id', 'merchant_id', 'merchant_batch_id',
    'payment_method_id', 'payment_method_type', 'reference', 'reason', 'hold_amount', 'hold_release_at', 'hold_released_at',
    'expires_at', 'reserved_coins', 'version',
  ]),
  ledger_entries: columnsOf<LedgerEntriesTable>()([
    'ledger_id', 'tx_id', 'account_id', 'entry_date', 'type', 'amount', 'currency', 'debit_credit', 'event_position',
  ]),
  coins: columnsOf<CoinsTable>()(['serial', 'holder', 'value', 'status', 'parent_serial', 'minted_tx_id']),
  coin_audit: columnsOf<CoinAuditTable>()([
    'audit_id', 'tx_id', 'event_position', 'serial', 'action', 'value', 'from_account', 'to_account', 'parent_serial', 'entry_date',
  ]),
  projection_checkpoints: columnsOf<ProjectionCheckpointsTable>()(['name', 'transaction_id', 'position', 'updated_at']),
  platform_balances: columnsOf<PlatformBalancesTable>()(['account_id', 'currency', 'balance', 'entries']),
} satisfies { [Table in keyof Database]: Columns<Database[Table]> };
