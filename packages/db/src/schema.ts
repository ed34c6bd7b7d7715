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
  projection_checkpoints: ProjectionCheckpointsTable;
  platform_balances: PlatformBalancesTable;
  users: UsersTable;
  merchants: MerchantsTable;
  merchant_users: MerchantUsersTable;
  sessions: SessionsTable;
  rate_limit_hits: RateLimitHitsTable;
  sign_in_throttles: SignInThrottlesTable;
  password_recovery_codes: PasswordRecoveryCodesTable;
  email_outbox: EmailOutboxTable;
  user_preferences: UserPreferencesTable;
  addresses: AddressesTable;
  contacts: ContactsTable;
  categories: CategoriesTable;
  sub_categories: SubCategoriesTable;
  merchant_terminals: MerchantTerminalsTable;
  agreements: AgreementsTable;
  agreement_acceptances: AgreementAcceptancesTable;
  webhooks: WebhooksTable;
  user_avatars: UserAvatarsTable;
  user_documents: UserDocumentsTable;
  payment_methods: PaymentMethodsTable;
  sandbox_cards: SandboxCardsTable;
  sandbox_charges: SandboxChargesTable;
  deposit_instructions: DepositInstructionsTable;
  bitcoin_keys: BitcoinKeysTable;
  bitcoin_deposits: BitcoinDepositsTable;
  correction_requests: CorrectionRequestsTable;
  ban_requests: BanRequestsTable;
  ledger_verifications: LedgerVerificationsTable;
  ledger_log_leaves: LedgerLogLeavesTable;
  ledger_log_nodes: LedgerLogNodesTable;
  ledger_log_checkpoints: LedgerLogCheckpointsTable;
  ledger_log_witnesses: LedgerLogWitnessesTable;
  platform_secrets: PlatformSecretsTable;
  checkout_sessions: CheckoutSessionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  sandbox_payouts: SandboxPayoutsTable;
  sandbox_refunds: SandboxRefundsTable;
  card_return_flags: CardReturnFlagsTable;
  user_pins: UserPinsTable;
  security_questions: SecurityQuestionsTable;
  user_security_answers: UserSecurityAnswersTable;
  secret_tries: SecretTriesTable;
  exchange_rates: ExchangeRatesTable;
  quotes: QuotesTable;
}

/** A rate the price list has used, from `valid_from` on (migration 0220). */
export interface ExchangeRatesTable {
  rate_id: Generated<number>;
  currency: 'USD' | 'CAD';
  /** Coins are priced in this currency; always USD. */
  reference_currency: 'USD';
  /** Units of the reference currency one unit of `currency` is worth, in millionths. */
  rate_micros: number;
  /** Where the rate came from (the configuration, a provider's name). */
  source: string;
  valid_from: Date;
}

/** The terms a person saw before converting money, for one transaction at most (migration 0220). */
export interface QuotesTable {
  quote_id: string;
  owner_id: string;
  user_id: number;
  from_currency: string;
  to_currency: string;
  amount_in: number;
  amount_out: number;
  fee: Generated<number>;
  /** The cash side's rate to US dollars, in millionths: the ledger's rate. */
  rate_micros: number;
  /** Coins one unit of the cash side buys, in millionths. */
  coin_micros_per_unit: number;
  /** The exchange_rates row the rate came from; null for US dollars, the reference currency. */
  rate_id: number | null;
  created_at: Date;
  expires_at: Date;
  /** The transaction that used the quote. */
  tx_id: string | null;
}

export interface SandboxRefundsTable {
  refund_key: string;
  refund_id: string;
  charge_id: string;
  amount: number;
  currency: string;
  created_at: Date;
}

/** A card return the retry gave up on, for finance (migration 0190). */
export interface CardReturnFlagsTable {
  tx_id: string;
  flagged_at: Date;
  reason: string;
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
  parent_tx_id: string | null;
  returned_amount: number;
  return_date: Date | null;
  /** A deposit's cash, `{amount, currency}`; null for every other transaction. */
  payment: ColumnType<{ amount: number; currency: string } | null, string | null, string | null>;
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
  /** Coins bought by card: when they can be withdrawn as cash (null: at once). Coins split from it keep it. */
  matures_at: Date | null;
  /** Every transaction whose events name the coin, in the order they first did (its trail's events are theirs). */
  tx_ids: string[];
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

export interface UsersTable {
  user_id: Generated<number>;
  guser_id: Generated<string>;
  username: string;
  email: string;
  /** A PHC string: algorithm, parameters, salt and hash. */
  password_hash: string;
  user_type: 'personal' | 'business';
  role: Generated<string>;
  account_status: Generated<'active' | 'disabled'>;
  is_banned: Generated<boolean>;
  perms: string[];
  /** `date`, read as "YYYY-MM-DD" text (see pool.ts) so no time zone shifts it. */
  birthday: string;
  country: string;
  currency: string;
  terms_accepted: boolean;
  fullname: string | null;
  avatar: string | null;
  gender: string | null;
  phone: string | null;
  city: string | null;
  province: string | null;
  description: string | null;
  name_first: ColumnType<string | null, string | null | undefined, string | null>;
  name_last: ColumnType<string | null, string | null | undefined, string | null>;
  prefix: ColumnType<string | null, string | null | undefined, string | null>;
  phone_region: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Date;
  updated_at: Date;
}

export interface MerchantsTable {
  merchant_id: Generated<number>;
  name: string;
  dba: string;
  website: string;
  phone: string;
  phone_region: string;
  category_id: number;
  sub_category_id: number;
  business_type: string;
  date_established: string;
  monthly_sales: number;
  business_number: string;
  business_country: string;
  address_email: string;
  address_phone: string;
  address_name_first: string;
  address_name_last: string;
  address1: string;
  address2: string | null;
  city: string;
  province_state: string;
  postal_code: string;
  country: string;
  support_url: string;
  support_phone: string;
  support_phone_region: string;
  support_email: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  contact_phone_region: string;
  owner_citizenship: string;
  owner_dob: string;
  owner_name: string;
  owner_phone: string;
  owner_phone_region: string;
  owner_email: string;
  created_at: Date;
  updated_at: Date;
}

export interface MerchantUsersTable {
  merchant_id: number;
  user_id: number;
  perms: string[];
  created_at: Date;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  session_key: Buffer;
  user_id: number | null;
  merchant_id: number | null;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** Wrong passwords per account, per account and address, and the addresses an account signed in from (migration 0080). */
export interface SignInThrottlesTable {
  key: string;
  failures: number;
  blocked_until: Date | null;
  updated_at: Date;
}

export interface RateLimitHitsTable {
  key: string;
  hits: number;
  window_ends_at: Date;
}

export interface PasswordRecoveryCodesTable {
  recovery_id: Generated<number>;
  user_id: number;
  /** The code is kept only as HMAC-SHA256(salt, code). */
  code_salt: Buffer;
  code_hash: Buffer;
  attempts: Generated<number>;
  created_at: Date;
  expires_at: Date;
  checked_at: Date | null;
  used_at: Date | null;
}

export interface EmailOutboxTable {
  email_id: Generated<number>;
  recipient: string;
  template: string;
  subject: string;
  /** What the template needs; a secret in it is sealed, and redacted once sent (@peeks/jobs email-secrets). Never logged. */
  payload: ColumnType<unknown, string, string>;
  created_at: Date;
  sent_at: Date | null;
  attempts: Generated<number>;
}

export interface UserPreferencesTable {
  user_id: number;
  section: 'notifications' | 'notify-methods';
  key: string;
  enabled: boolean;
  updated_at: Date;
}

export interface AddressesTable {
  address_id: Generated<number>;
  user_id: number;
  name_first: string;
  name_last: string;
  address1: string;
  address2: string | null;
  city: string;
  province_state: string;
  postal_code: string;
  country: string;
  is_primary: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ContactsTable {
  contact_id: Generated<number>;
  /** The user whose address book this is; every query is scoped by it. */
  owner_user_id: number;
  name_first: string;
  name_last: string;
  /** The dialling code, such as +1; `phone` holds the 10 digits after it. */
  phone_region: string;
  phone: string;
  email: string;
  address1: string;
  address2: string | null;
  city: string;
  province: string;
  country: string;
  postal: string;
  /** Add A Recipient's banking details (migration 0161): all three or none. */
  bank_name: string | null;
  institution_no: string | null;
  account_no: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CategoriesTable {
  category_id: number;
  name: string;
}

export interface SubCategoriesTable {
  sub_category_id: number;
  category_id: number;
  name: string;
}

export interface MerchantTerminalsTable {
  merchant_terminal_id: Generated<number>;
  merchant_id: number;
  terminal_id: string;
  comment: string;
  registration_code: number;
  entry_date: Date;
}

export interface AgreementsTable {
  agreement_id: Generated<number>;
  name: string;
  version: number;
  category: string;
  audience: 'user' | 'merchant';
  /** HTML shown in the agreement modal. */
  short_description: string;
  effective_date: Date;
  expiry_date: Date | null;
  agree_by: Date | null;
}

export interface AgreementAcceptancesTable {
  agreement_acceptance_id: Generated<number>;
  agreement_id: number;
  user_id: number;
  /** Set for a merchant agreement: the merchant it binds. */
  merchant_id: number | null;
  agreed_at: Date | null;
  skipped_at: Date | null;
}

export interface WebhooksTable {
  webhook_id: Generated<number>;
  /** Null for a personal user's webhook, which hears about the user's own wallets. */
  merchant_id: number | null;
  user_id: number;
  state: 'enabled' | 'disabled';
  url: string;
  events: string[];
  /** The Standard Webhooks signing key, "whsec_" + base64; returned only when created. */
  secret: string;
  created_at: Date;
  updated_at: Date;
  /** When the current run of failed delivery attempts began; null while deliveries succeed. */
  failing_since: Generated<Date | null>;
  /** Why the worker disabled it (410 Gone, failing for days); null when enabled or disabled by the merchant. */
  disabled_reason: Generated<string | null>;
  /** The secret before the last rotation, still signing beside the new one until `previous_secret_until`. */
  previous_secret: Generated<string | null>;
  previous_secret_until: Generated<Date | null>;
}

/** A user's PIN, as an argon2id PHC string. */
export interface UserPinsTable {
  user_id: number;
  pin_hash: string;
  set_at: Date;
}

export interface SecurityQuestionsTable {
  question_id: number;
  question: string;
}

/** A user's two chosen questions; answers folded (case, spaces) and hashed. */
export interface UserSecurityAnswersTable {
  user_id: number;
  position: number;
  question_id: number;
  answer_hash: string;
  set_at: Date;
}

/** Wrong PINs or answers in a row, and until when that kind is locked. */
export interface SecretTriesTable {
  user_id: number;
  secret: 'pin' | 'security-answers';
  failures: number;
  locked_until: Date | null;
}

/** One ledger event's message to one webhook; its id is the Standard Webhooks `webhook-id`. */
export interface WebhookDeliveriesTable {
  delivery_id: string;
  webhook_id: number;
  event_type: string;
  tx_id: string;
  event_version: number;
  /** The exact JSON text sent: the signature covers these bytes. */
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  /** The number of the latest attempt enqueued; the attempt jobs' ids are derived from it. */
  attempts_scheduled: number;
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/** One POST of a delivery: the answer's status (or why there was none), how long it took, its first bytes. */
export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_body: string | null;
}

/** One avatar per user, a re-encoded JPEG; `sha256` names the version in its URL. */
export interface UserAvatarsTable {
  user_id: number;
  content: Buffer;
  content_type: 'image/jpeg';
  sha256: string;
  uploaded_at: Date;
}

/** A merchant's cart waiting to be paid; paid exactly when the ledger has `tx_id` (migration 0020). */
export interface CheckoutSessionsTable {
  checkout_id: Generated<number>;
  merchant_id: number;
  created_by: number;
  token_hash: Buffer;
  tx_id: string;
  /** The cart lines, [{sku, name, price}]: written as JSON text, read back parsed. */
  cart: ColumnType<unknown, string, never>;
  total: number;
  currency: string;
  success_url: string;
  created_at: Date;
  expires_at: Date;
}

/** Identity documents: never served publicly, every query scoped by user_id. */
export interface UserDocumentsTable {
  document_id: Generated<number>;
  user_id: number;
  merchant_id: number | null;
  document_type: string;
  document_number: string;
  issuing_country: string;
  /** `date`, read back as "YYYY-MM-DD" text. */
  issue_date: string;
  expiry_date: string;
  content: Buffer;
  content_type: 'image/jpeg' | 'image/png';
  sha256: string;
  uploaded_at: Date;
}

/** A user's card, bank account or wire account. A card is its processor token, brand, mask and expiry, never its number. */
export interface PaymentMethodsTable {
  payment_method_id: Generated<number>;
  user_id: number;
  type: 'CC' | 'CHQ' | 'WIRE';
  /** 'E' enabled, 'D' deleted (kept because transactions name it). */
  state: 'E' | 'D';
  validated: 'V' | 'N';
  is_default: boolean;
  /** What makes two methods the same one (a card token, a bank account): unique among a user's live methods. */
  fingerprint: string;
  billing_address: ColumnType<Record<string, unknown>, string, string>;
  shipping_address: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  type_specific: ColumnType<Record<string, unknown>, string, string>;
  entry_date: Date;
  updated_at: Date;
}

/** The sandbox card processor's vault: the only table that holds a card number. */
export interface SandboxCardsTable {
  token: string;
  card_number: string;
  brand: string;
  mask: string;
  expiry_month: number;
  expiry_year: number;
  created_at: Date;
}

/** The sandbox card processor's charges, one per idempotency key. */
export interface SandboxChargesTable {
  charge_id: string;
  idempotency_key: string;
  token: string;
  amount: number;
  currency: string;
  status: 'approved' | 'declined';
  created_at: Date;
  /** Set once, when the charge is given back. */
  refunded_at: Date | null;
}

/** The sandbox payout provider's payouts (migration 0060), one per idempotency key. */
export interface SandboxPayoutsTable {
  payout_id: string;
  idempotency_key: string;
  destination_kind: 'card' | 'bank';
  /** A card token or a bank account number, as the provider was asked to pay it. */
  destination: string;
  amount: number;
  currency: string;
  status: 'paid' | 'failed';
  failure_reason: string | null;
  created_at: Date;
}

/** How an e-mail-transfer deposit is to reach the platform, keyed by its ledger transaction. */
export interface DepositInstructionsTable {
  tx_id: string;
  user_id: number;
  method: 'interac' | 'zelle';
  /** The reference memo, unique across all deposits. */
  reference: string;
  recipient_name: string;
  recipient_email: string;
  security_question: string | null;
  security_answer: string | null;
  sender_name: string | null;
  sender_email: string;
  /** What the user sends, in minor units of `currency`. */
  amount: number;
  currency: 'USD' | 'CAD';
  rate_micros: number;
  /** Coins the deposit buys when cleared, in CON minor units. */
  coin_estimate: number;
  created_at: Date;
}

/** An extended public key (account level, BIP84) that deposit addresses are derived from. */
export interface BitcoinKeysTable {
  key_id: Generated<number>;
  network: 'mainnet' | 'testnet';
  xpub: string;
  generated: boolean;
  created_at: Date;
}

export type CorrectionRequestState = 'pending' | 'approved' | 'rejected';

/** A balance correction waiting for, or decided by, a second finance operator (migration 0140). */
export interface CorrectionRequestsTable {
  correction_id: string;
  owner_id: string;
  currency: string;
  amount: number;
  reason: string;
  state: Generated<CorrectionRequestState>;
  /** Operators' ledger owner ids: who asked, and who approved or rejected (never the same). */
  requested_by: string;
  requested_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  /** The ledger transaction an approval posted. */
  tx_id: string | null;
}

/** A ban of a finance operator waiting for, or decided by, a second operator (migration 0192). */
export interface BanRequestsTable {
  ban_id: string;
  /** The operator to be banned. */
  user_id: number;
  reason: string;
  state: Generated<CorrectionRequestState>;
  /** Operators' ledger owner ids: who asked, and who approved or rejected (never the same). */
  requested_by: string;
  requested_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
}

/** One address per bitcoin deposit, never reused. */
export interface BitcoinDepositsTable {
  tx_id: string;
  user_id: number;
  key_id: number;
  derivation_index: number;
  address: string;
  amount_sats: number;
  usd_cents: number;
  usd_cents_per_btc: number;
  coins: number;
  created_at: Date;
  expires_at: Date;
  /** The watcher's view (migration 0065): see BitcoinWatchState. */
  watch_state: Generated<BitcoinWatchState>;
  /** Satoshis paid to the address, in the mempool or mined; and those with enough confirmations. */
  received_sats: Generated<number>;
  confirmed_sats: Generated<number>;
  payment_txids: Generated<string[]>;
  /** When the watcher first saw a payment. */
  seen_at: Date | null;
  flag: BitcoinDepositFlag | null;
  flag_reason: string | null;
  flagged_at: Date | null;
  /** An operator's resolution of a flagged deposit (migration 0120); null while it waits. */
  resolution: BitcoinDepositResolution | null;
  resolved_sats: number | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  /** The ledger transaction that credited the satoshis (resolution 'credited'). */
  credit_tx_id: string | null;
  /** Where the satoshis were sent back to (resolution 'refunded'). */
  refund_address: string | null;
  /** The fewest confirmations among the address's payments (migration 0100); null while none is seen. */
  confirmations: number | null;
}

/**
 * pending: nothing paid yet; processing: paid, waiting for confirmations;
 * cleared and expired as in the ledger; flagged: the payment does not fit
 * the deposit, and an operator must look.
 */
export type BitcoinWatchState = 'pending' | 'processing' | 'cleared' | 'expired' | 'flagged';
export type BitcoinDepositFlag = 'underpaid' | 'overpaid' | 'late' | 'paid-again';
export type BitcoinDepositResolution = 'credited' | 'refunded';

export interface LedgerVerificationsTable {
  verification_id: Generated<number>;
  state: 'running' | 'finished' | 'crashed';
  started_by: string;
  started_at: Date;
  heartbeat_at: Date;
  finished_at: Date | null;
  ok: boolean | null;
  report: string | null;
  progress: ColumnType<unknown, string | null, string | null>;
}

/** Migrations 0200 and 0430: the ledger log, see docs/architecture/ledger-log.md. */
export interface LedgerLogLeavesTable {
  log_index: number;
  /** The event's `events.position`. */
  event_position: number;
  leaf_data: Buffer;
}

export interface LedgerLogNodesTable {
  level: number;
  node_index: number;
  hash: Buffer;
}

export interface LedgerLogCheckpointsTable {
  tree_size: number;
  root_hash: Buffer;
  note: string;
  created_at: Date;
}

export interface LedgerLogWitnessesTable {
  witness: string;
  tree_size: number;
  attempted_at: Date;
  delivered: boolean;
  error: string | null;
}

export interface PlatformSecretsTable {
  name: string;
  secret: Buffer;
  created_at: Date;
}

type Columns<Table> = readonly (keyof Table & string)[];
type ExactlyAll<Table, List extends Columns<Table>> =
  Exclude<keyof Table, List[number]> extends never ? List : ['missing columns', Exclude<keyof Table, List[number]>];

function columnsOf<Table>() {
  return <const List extends Columns<Table>>(list: ExactlyAll<Table, List>) => list;
}

export const schemaColumns = {
  exchange_rates: columnsOf<ExchangeRatesTable>()([
    'rate_id',
    'currency',
    'reference_currency',
    'rate_micros',
    'source',
    'valid_from',
  ]),
  quotes: columnsOf<QuotesTable>()([
    'quote_id',
    'owner_id',
    'user_id',
    'from_currency',
    'to_currency',
    'amount_in',
    'amount_out',
    'fee',
    'rate_micros',
    'coin_micros_per_unit',
    'rate_id',
    'created_at',
    'expires_at',
    'tx_id',
  ]),
  ledger_verifications: columnsOf<LedgerVerificationsTable>()([
    'verification_id',
    'state',
    'started_by',
    'started_at',
    'heartbeat_at',
    'finished_at',
    'ok',
    'report',
    'progress',
  ]),
  ledger_log_leaves: columnsOf<LedgerLogLeavesTable>()(['log_index', 'event_position', 'leaf_data']),
  ledger_log_nodes: columnsOf<LedgerLogNodesTable>()(['level', 'node_index', 'hash']),
  ledger_log_checkpoints: columnsOf<LedgerLogCheckpointsTable>()(['tree_size', 'root_hash', 'note', 'created_at']),
  ledger_log_witnesses: columnsOf<LedgerLogWitnessesTable>()([
    'witness',
    'tree_size',
    'attempted_at',
    'delivered',
    'error',
  ]),
  streams: columnsOf<StreamsTable>()(['stream_id', 'created_at']),
  events: columnsOf<EventsTable>()([
    'position',
    'stream_id',
    'stream_version',
    'type',
    'data',
    'metadata',
    'created_at',
    'transaction_id',
    'prev_hash',
    'hash',
  ]),
  idempotency_keys: columnsOf<IdempotencyKeysTable>()([
    'scope',
    'key',
    'fingerprint',
    'status_code',
    'response',
    'created_at',
    'completed_at',
  ]),
  wallets: columnsOf<WalletsTable>()([
    'wallet_id',
    'owner_id',
    'currency',
    'status',
    'total',
    'available',
    'withdrawable',
    'reserved',
    'opened_at',
    'version',
  ]),
  ledger_transactions: columnsOf<LedgerTransactionsTable>()([
    'tx_id',
    'type',
    'state',
    'tx_class',
    'entry_date',
    'updated_at',
    'amount',
    'fee',
    'currency',
    'payer_owner_id',
    'payer_wallet_id',
    'payee_owner_id',
    'payee_wallet_id',
    'merchant_id',
    'merchant_batch_id',
    'payment_method_id',
    'payment_method_type',
    'reference',
    'reason',
    'hold_amount',
    'hold_release_at',
    'hold_released_at',
    'expires_at',
    'reserved_coins',
    'version',
    'parent_tx_id',
    'returned_amount',
    'return_date',
    'payment',
  ]),
  ledger_entries: columnsOf<LedgerEntriesTable>()([
    'ledger_id',
    'tx_id',
    'account_id',
    'entry_date',
    'type',
    'amount',
    'currency',
    'debit_credit',
    'event_position',
  ]),
  coins: columnsOf<CoinsTable>()([
    'serial',
    'holder',
    'value',
    'status',
    'parent_serial',
    'minted_tx_id',
    'tx_ids',
    'matures_at',
  ]),
  projection_checkpoints: columnsOf<ProjectionCheckpointsTable>()(['name', 'transaction_id', 'position', 'updated_at']),
  platform_balances: columnsOf<PlatformBalancesTable>()(['account_id', 'currency', 'balance', 'entries']),
  users: columnsOf<UsersTable>()([
    'user_id',
    'guser_id',
    'username',
    'email',
    'password_hash',
    'user_type',
    'role',
    'account_status',
    'is_banned',
    'perms',
    'birthday',
    'country',
    'currency',
    'terms_accepted',
    'fullname',
    'avatar',
    'gender',
    'phone',
    'city',
    'province',
    'description',
    'name_first',
    'name_last',
    'prefix',
    'phone_region',
    'created_at',
    'updated_at',
  ]),
  merchants: columnsOf<MerchantsTable>()([
    'merchant_id',
    'name',
    'dba',
    'website',
    'phone',
    'phone_region',
    'category_id',
    'sub_category_id',
    'business_type',
    'date_established',
    'monthly_sales',
    'business_number',
    'business_country',
    'address_email',
    'address_phone',
    'address_name_first',
    'address_name_last',
    'address1',
    'address2',
    'city',
    'province_state',
    'postal_code',
    'country',
    'support_url',
    'support_phone',
    'support_phone_region',
    'support_email',
    'contact_name',
    'contact_email',
    'contact_phone',
    'contact_phone_region',
    'owner_citizenship',
    'owner_dob',
    'owner_name',
    'owner_phone',
    'owner_phone_region',
    'owner_email',
    'created_at',
    'updated_at',
  ]),
  merchant_users: columnsOf<MerchantUsersTable>()(['merchant_id', 'user_id', 'perms', 'created_at']),
  sessions: columnsOf<SessionsTable>()([
    'session_key',
    'user_id',
    'merchant_id',
    'csrf_token',
    'created_at',
    'last_seen_at',
    'expires_at',
  ]),
  rate_limit_hits: columnsOf<RateLimitHitsTable>()(['key', 'hits', 'window_ends_at']),
  sign_in_throttles: columnsOf<SignInThrottlesTable>()(['key', 'failures', 'blocked_until', 'updated_at']),
  password_recovery_codes: columnsOf<PasswordRecoveryCodesTable>()([
    'recovery_id',
    'user_id',
    'code_salt',
    'code_hash',
    'attempts',
    'created_at',
    'expires_at',
    'checked_at',
    'used_at',
  ]),
  email_outbox: columnsOf<EmailOutboxTable>()([
    'email_id',
    'recipient',
    'template',
    'subject',
    'payload',
    'created_at',
    'sent_at',
    'attempts',
  ]),
  user_preferences: columnsOf<UserPreferencesTable>()(['user_id', 'section', 'key', 'enabled', 'updated_at']),
  addresses: columnsOf<AddressesTable>()([
    'address_id',
    'user_id',
    'name_first',
    'name_last',
    'address1',
    'address2',
    'city',
    'province_state',
    'postal_code',
    'country',
    'is_primary',
    'created_at',
    'updated_at',
  ]),
  contacts: columnsOf<ContactsTable>()([
    'contact_id',
    'owner_user_id',
    'name_first',
    'name_last',
    'phone_region',
    'phone',
    'email',
    'address1',
    'address2',
    'city',
    'province',
    'country',
    'postal',
    'created_at',
    'updated_at',
    'bank_name',
    'institution_no',
    'account_no',
  ]),
  categories: columnsOf<CategoriesTable>()(['category_id', 'name']),
  sub_categories: columnsOf<SubCategoriesTable>()(['sub_category_id', 'category_id', 'name']),
  merchant_terminals: columnsOf<MerchantTerminalsTable>()([
    'merchant_terminal_id',
    'merchant_id',
    'terminal_id',
    'comment',
    'registration_code',
    'entry_date',
  ]),
  agreements: columnsOf<AgreementsTable>()([
    'agreement_id',
    'name',
    'version',
    'category',
    'audience',
    'short_description',
    'effective_date',
    'expiry_date',
    'agree_by',
  ]),
  agreement_acceptances: columnsOf<AgreementAcceptancesTable>()([
    'agreement_acceptance_id',
    'agreement_id',
    'user_id',
    'merchant_id',
    'agreed_at',
    'skipped_at',
  ]),
  webhooks: columnsOf<WebhooksTable>()([
    'webhook_id',
    'merchant_id',
    'user_id',
    'state',
    'url',
    'events',
    'secret',
    'created_at',
    'updated_at',
    'failing_since',
    'disabled_reason',
    'previous_secret',
    'previous_secret_until',
  ]),
  user_pins: columnsOf<UserPinsTable>()(['user_id', 'pin_hash', 'set_at']),
  security_questions: columnsOf<SecurityQuestionsTable>()(['question_id', 'question']),
  user_security_answers: columnsOf<UserSecurityAnswersTable>()([
    'user_id',
    'position',
    'question_id',
    'answer_hash',
    'set_at',
  ]),
  secret_tries: columnsOf<SecretTriesTable>()(['user_id', 'secret', 'failures', 'locked_until']),
  user_avatars: columnsOf<UserAvatarsTable>()(['user_id', 'content', 'content_type', 'sha256', 'uploaded_at']),
  user_documents: columnsOf<UserDocumentsTable>()([
    'document_id',
    'user_id',
    'merchant_id',
    'document_type',
    'document_number',
    'issuing_country',
    'issue_date',
    'expiry_date',
    'content',
    'content_type',
    'sha256',
    'uploaded_at',
  ]),
  payment_methods: columnsOf<PaymentMethodsTable>()([
    'payment_method_id',
    'user_id',
    'type',
    'state',
    'validated',
    'is_default',
    'fingerprint',
    'billing_address',
    'shipping_address',
    'type_specific',
    'entry_date',
    'updated_at',
  ]),
  sandbox_cards: columnsOf<SandboxCardsTable>()([
    'token',
    'card_number',
    'brand',
    'mask',
    'expiry_month',
    'expiry_year',
    'created_at',
  ]),
  sandbox_refunds: columnsOf<SandboxRefundsTable>()([
    'refund_key',
    'refund_id',
    'charge_id',
    'amount',
    'currency',
    'created_at',
  ]),
  card_return_flags: columnsOf<CardReturnFlagsTable>()(['tx_id', 'flagged_at', 'reason']),
  sandbox_charges: columnsOf<SandboxChargesTable>()([
    'charge_id',
    'idempotency_key',
    'token',
    'amount',
    'currency',
    'status',
    'created_at',
    'refunded_at',
  ]),
  deposit_instructions: columnsOf<DepositInstructionsTable>()([
    'tx_id',
    'user_id',
    'method',
    'reference',
    'recipient_name',
    'recipient_email',
    'security_question',
    'security_answer',
    'sender_name',
    'sender_email',
    'amount',
    'currency',
    'rate_micros',
    'coin_estimate',
    'created_at',
  ]),
  bitcoin_keys: columnsOf<BitcoinKeysTable>()(['key_id', 'network', 'xpub', 'generated', 'created_at']),
  bitcoin_deposits: columnsOf<BitcoinDepositsTable>()([
    'tx_id',
    'user_id',
    'key_id',
    'derivation_index',
    'address',
    'amount_sats',
    'usd_cents',
    'usd_cents_per_btc',
    'coins',
    'created_at',
    'expires_at',
    'watch_state',
    'received_sats',
    'confirmed_sats',
    'payment_txids',
    'seen_at',
    'flag',
    'flag_reason',
    'flagged_at',
    'resolution',
    'resolved_sats',
    'resolved_by',
    'resolved_at',
    'credit_tx_id',
    'refund_address',
    'confirmations',
  ]),
  correction_requests: columnsOf<CorrectionRequestsTable>()([
    'correction_id',
    'owner_id',
    'currency',
    'amount',
    'reason',
    'state',
    'requested_by',
    'requested_at',
    'decided_by',
    'decided_at',
    'decision_reason',
    'tx_id',
  ]),
  ban_requests: columnsOf<BanRequestsTable>()([
    'ban_id',
    'user_id',
    'reason',
    'state',
    'requested_by',
    'requested_at',
    'decided_by',
    'decided_at',
    'decision_reason',
  ]),
  platform_secrets: columnsOf<PlatformSecretsTable>()(['name', 'secret', 'created_at']),
  checkout_sessions: columnsOf<CheckoutSessionsTable>()([
    'checkout_id',
    'merchant_id',
    'created_by',
    'token_hash',
    'tx_id',
    'cart',
    'total',
    'currency',
    'success_url',
    'created_at',
    'expires_at',
  ]),
  webhook_deliveries: columnsOf<WebhookDeliveriesTable>()([
    'delivery_id',
    'webhook_id',
    'event_type',
    'tx_id',
    'event_version',
    'body',
    'state',
    'attempts_scheduled',
    'created_at',
    'next_attempt_at',
    'delivered_at',
  ]),
  webhook_attempts: columnsOf<WebhookAttemptsTable>()([
    'delivery_id',
    'attempt',
    'attempted_at',
    'status_code',
    'error',
    'latency_ms',
    'response_body',
  ]),
  sandbox_payouts: columnsOf<SandboxPayoutsTable>()([
    'payout_id',
    'idempotency_key',
    'destination_kind',
    'destination',
    'amount',
    'currency',
    'status',
    'failure_reason',
    'created_at',
  ]),
} satisfies { [Table in keyof Database]: Columns<Database[Table]> };
