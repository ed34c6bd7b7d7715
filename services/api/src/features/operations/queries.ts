import {
  emailTransferMethods,
  type BitcoinDepositView,
  type OutboxEmail,
  type PendingDeposit,
  type PendingWithdrawal,
} from '@peeks/contracts';
import {
  canonicalEvent,
  chainHash,
  GENESIS_HASH,
  toStoredEvent,
  type BitcoinWatchState,
  type EventsTable,
} from '@peeks/db';
import { openEmailSecrets, renderEmail } from '@peeks/jobs';
import type { Database } from '@peeks/db';
import { isCurrency, merchantOwnerId, ownerOf, userOwnerId, type Currency } from '@peeks/ledger';
import { scrubSecrets } from '@peeks/runtime';
import { sql, type Kysely, type Selectable } from 'kysely';

interface Period {
  from?: Date | undefined;
  to?: Date | undefined;
}
interface Page {
  offset: number;
  limit: number;
}

/** `text` matched literally inside a LIKE pattern: its own % and _ are not wildcards. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

const currencyOf = (code: string): Currency => {
  if (!isCurrency(code)) throw new Error(`not a ledger currency: ${code}`);
  return code;
};

/**
 * E-mail transfer deposits (any state) with what the user said they would
 * send, which only the DepositEntered event keeps (the read model holds the
 * coins it buys), and the user it is for.
 */
function emailDeposits(db: Kysely<Database>) {
  return db
    .selectFrom('ledger_transactions as tx')
    .innerJoin('events as entered', (join) =>
      join.on(sql<boolean>`entered.stream_id = 'ledger-' || tx.tx_id`).on('entered.stream_version', '=', 1),
    )
    .leftJoin('users', (join) =>
      join.on(sql<boolean>`users.user_id = substring(tx.payee_owner_id from '^user-(\\d{1,15})$')::bigint`),
    )
    .where('tx.tx_class', '=', 'DepositEntered')
    .where('tx.payment_method_type', 'in', emailTransferMethods)
    .select([
      'tx.tx_id',
      'tx.state',
      'tx.entry_date',
      'tx.expires_at',
      'tx.payment_method_type as method',
      'tx.reference',
      'tx.amount as coins',
      'tx.payee_owner_id',
      sql<string>`entered.data->'payment'->>'amount'`.as('payment_amount'),
      sql<string>`entered.data->'payment'->>'currency'`.as('payment_currency'),
      'users.user_id',
      'users.username',
      'users.email',
    ]);
}

type DepositRow = Awaited<ReturnType<ReturnType<typeof emailDeposits>['executeTakeFirstOrThrow']>>;

export type EmailDeposit = PendingDeposit & { state: string };

const toDeposit = (row: DepositRow): PendingDeposit => ({
  tx_id: row.tx_id,
  entry_date: row.entry_date.toISOString(),
  expires_at: row.expires_at?.toISOString() ?? null,
  method: row.method ?? '',
  reference: row.reference,
  payment: { amount: Number(row.payment_amount), currency: currencyOf(row.payment_currency) },
  coins: row.coins,
  owner_id: row.payee_owner_id ?? '',
  user_id: row.user_id ?? null,
  username: row.username ?? null,
  email: row.email ?? null,
});

/** Pending e-mail transfer deposits, oldest first: the order they are worked through. */
export async function pendingDeposits(
  db: Kysely<Database>,
  filters: Period &
    Page & {
      method?: (typeof emailTransferMethods)[number] | undefined;
      reference?: string | undefined;
      user_id?: number | undefined;
    },
): Promise<{ deposits: PendingDeposit[]; total: number }> {
  let query = emailDeposits(db).where('tx.state', '=', 'pending');
  if (filters.method) query = query.where('tx.payment_method_type', '=', filters.method);
  if (filters.reference) query = query.where('tx.reference', 'ilike', `%${likeLiteral(filters.reference)}%`);
  if (filters.user_id !== undefined) query = query.where('tx.payee_owner_id', '=', userOwnerId(filters.user_id));
  if (filters.from) query = query.where('tx.entry_date', '>=', filters.from);
  if (filters.to) query = query.where('tx.entry_date', '<', filters.to);
  const [rows, count] = await Promise.all([
    query.orderBy('tx.entry_date').orderBy('tx.tx_id').offset(filters.offset).limit(filters.limit).execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { deposits: rows.map(toDeposit), total: count.total };
}

/** An e-mail transfer deposit in any state, or undefined: a bitcoin or card deposit is not one. */
export async function findEmailDeposit(db: Kysely<Database>, txId: string): Promise<EmailDeposit | undefined> {
  const row = await emailDeposits(db).where('tx.tx_id', '=', txId).executeTakeFirst();
  return row && { ...toDeposit(row), state: row.state };
}

function withdrawals(db: Kysely<Database>) {
  return db
    .selectFrom('ledger_transactions')
    .where('tx_class', '=', 'WithdrawalRequested')
    .select([
      'tx_id',
      'state',
      'entry_date',
      'amount',
      'currency',
      'payer_owner_id',
      'payment_method_type',
      'payment_method_id',
    ]);
}

type WithdrawalRow = Awaited<ReturnType<ReturnType<typeof withdrawals>['executeTakeFirstOrThrow']>>;

function toWithdrawal(row: WithdrawalRow): PendingWithdrawal {
  const ownerId = row.payer_owner_id ?? '';
  const owner = ownerOf(ownerId);
  return {
    tx_id: row.tx_id,
    entry_date: row.entry_date.toISOString(),
    amount: row.amount,
    currency: currencyOf(row.currency),
    owner_id: ownerId,
    user_id: owner?.kind === 'user' ? owner.id : null,
    merchant_id: owner?.kind === 'merchant' ? owner.id : null,
    destination: row.payment_method_type,
    payment_method: row.payment_method_id,
  };
}

/** Pending withdrawals, oldest first. */
export async function pendingWithdrawals(
  db: Kysely<Database>,
  filters: Period &
    Page & { user_id?: number | undefined; merchant_id?: number | undefined; currency?: Currency | undefined },
): Promise<{ withdrawals: PendingWithdrawal[]; total: number }> {
  let query = withdrawals(db).where('state', '=', 'pending');
  if (filters.user_id !== undefined) query = query.where('payer_owner_id', '=', userOwnerId(filters.user_id));
  if (filters.merchant_id !== undefined)
    query = query.where('payer_owner_id', '=', merchantOwnerId(filters.merchant_id));
  if (filters.currency) query = query.where('currency', '=', filters.currency);
  if (filters.from) query = query.where('entry_date', '>=', filters.from);
  if (filters.to) query = query.where('entry_date', '<', filters.to);
  const [rows, count] = await Promise.all([
    query.orderBy('entry_date').orderBy('tx_id').offset(filters.offset).limit(filters.limit).execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { withdrawals: rows.map(toWithdrawal), total: count.total };
}

/** A withdrawal in any state, or undefined. */
export async function findWithdrawal(
  db: Kysely<Database>,
  txId: string,
): Promise<(PendingWithdrawal & { state: string }) | undefined> {
  const row = await withdrawals(db).where('tx_id', '=', txId).executeTakeFirst();
  return row && { ...toWithdrawal(row), state: row.state };
}

/**
 * The event log, newest first, below position `before`. Keyset paging on
 * the position: a page never shifts when events are appended meanwhile.
 * Each event says whether its link holds: its hash is the hash of its
 * previous hash and its own content, and that previous hash is the hash of
 * the event before it in its stream (zeros for a stream's first).
 */
export async function eventLog(
  db: Kysely<Database>,
  filters: Period & {
    stream?: string | undefined;
    type?: string | undefined;
    actor?: string | undefined;
    before?: number | undefined;
    limit: number;
  },
) {
  let query = db
    .selectFrom('events as e')
    .leftJoin('events as previous', (join) =>
      join
        .onRef('previous.stream_id', '=', 'e.stream_id')
        .on('previous.stream_version', '=', sql<number>`e.stream_version - 1`),
    )
    .selectAll('e')
    .select('previous.hash as previous_event_hash');
  if (filters.stream) query = query.where('e.stream_id', 'like', `${likeLiteral(filters.stream)}%`);
  if (filters.type) query = query.where('e.type', '=', filters.type);
  if (filters.actor) query = query.where(sql<string>`e.metadata->>'actor'`, '=', filters.actor);
  if (filters.from) query = query.where('e.created_at', '>=', filters.from);
  if (filters.to) query = query.where('e.created_at', '<', filters.to);
  if (filters.before !== undefined) query = query.where('e.position', '<', filters.before);
  // One row more than asked tells whether there is a next page.
  const rows = await query
    .orderBy('e.position', 'desc')
    .limit(filters.limit + 1)
    .execute();
  const page = rows.slice(0, filters.limit);
  return {
    events: page.map(({ previous_event_hash: previousHash, ...row }) => ({
      position: row.position,
      stream_id: row.stream_id,
      stream_version: row.stream_version,
      type: row.type,
      data: row.data as Record<string, unknown>,
      metadata: row.metadata as Record<string, unknown>,
      created_at: row.created_at.toISOString(),
      hash: row.hash,
      prev_hash: row.prev_hash,
      link_verifies: linkVerifies(row, previousHash),
    })),
    next_before: rows.length > filters.limit ? (page.at(-1)?.position ?? null) : null,
  };
}

function linkVerifies(row: Selectable<EventsTable>, previousHash: string | null): boolean {
  const expectedPrevious = row.stream_version === 1 ? GENESIS_HASH : previousHash;
  if (row.prev_hash !== expectedPrevious) return false;
  try {
    return chainHash(row.prev_hash, canonicalEvent(toStoredEvent(row))) === row.hash;
  } catch {
    return false;
  }
}

/** The platform's own accounts as the asynchronous projection has them, and when it last caught up. */
export async function platformBalanceSheet(db: Kysely<Database>, projectionName: string) {
  const [balances, checkpoint] = await Promise.all([
    db.selectFrom('platform_balances').selectAll().orderBy('account_id').execute(),
    db.selectFrom('projection_checkpoints').select('updated_at').where('name', '=', projectionName).executeTakeFirst(),
  ]);
  return { balances, as_of: checkpoint?.updated_at.toISOString() ?? null };
}

/**
 * The e-mail outbox, newest first. Secret-named payload fields (recovery
 * codes, security answers) are redacted: they are for the recipient alone,
 * not for staff. `withBodies` (development without SMTP_URL only) adds each
 * unsent message's text as it would be sent, secrets included, so a
 * newcomer can finish a recovery without a mail server or psql.
 */
export async function emailOutbox(
  db: Kysely<Database>,
  filters: Page & { state?: 'unsent' | 'sent' | undefined; recipient?: string | undefined },
  withBodies = false,
): Promise<{ emails: OutboxEmail[]; total: number }> {
  let query = db
    .selectFrom('email_outbox')
    .select(['email_id', 'recipient', 'template', 'subject', 'payload', 'created_at', 'sent_at', 'attempts']);
  if (filters.state === 'unsent') query = query.where('sent_at', 'is', null);
  if (filters.state === 'sent') query = query.where('sent_at', 'is not', null);
  if (filters.recipient) query = query.where('recipient', 'ilike', `%${likeLiteral(filters.recipient)}%`);
  const [rows, count] = await Promise.all([
    query
      .orderBy('created_at', 'desc')
      .orderBy('email_id', 'desc')
      .offset(filters.offset)
      .limit(filters.limit)
      .execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    emails: await Promise.all(
      rows.map(async (row) => ({
        ...row,
        payload: scrubSecrets(row.payload as Record<string, unknown>),
        // The outbox keeps secrets sealed: the development view opens them, as the sender would.
        body:
          withBodies && row.sent_at === null
            ? renderEmail(row.subject, await openEmailSecrets(db, row.payload as Record<string, unknown>))
            : null,
        created_at: row.created_at.toISOString(),
        sent_at: row.sent_at?.toISOString() ?? null,
      })),
    ),
    total: count.total,
  };
}

/**
 * Bitcoin deposits as the watcher sees them, with the ledger's state of
 * each, oldest first. `state: 'flagged'` lists the payments that did not
 * fit their deposit (under- or overpaid, late, paid again), each with why.
 */
export async function bitcoinDeposits(
  db: Kysely<Database>,
  filters: Period &
    Page & {
      state?: BitcoinWatchState | undefined;
      resolved?: 'yes' | 'no' | undefined;
      user_id?: number | undefined;
      tx_id?: string | undefined;
    },
): Promise<{ deposits: BitcoinDepositView[]; total: number }> {
  let query = db
    .selectFrom('bitcoin_deposits as deposit')
    .innerJoin('ledger_transactions as tx', 'tx.tx_id', 'deposit.tx_id')
    .innerJoin('users', 'users.user_id', 'deposit.user_id')
    .select([
      'deposit.tx_id',
      'deposit.watch_state',
      'tx.state as ledger_state',
      'deposit.address',
      'deposit.amount_sats',
      'deposit.received_sats',
      'deposit.confirmed_sats',
      'deposit.payment_txids',
      'deposit.usd_cents',
      'deposit.coins',
      'deposit.flag',
      'deposit.flag_reason',
      'deposit.flagged_at',
      'deposit.seen_at',
      'deposit.created_at',
      'deposit.expires_at',
      'tx.payee_owner_id',
      'deposit.user_id',
      'users.username',
      'deposit.resolution',
      'deposit.resolved_sats',
      'deposit.resolved_by',
      'deposit.resolved_at',
      'deposit.credit_tx_id',
      'deposit.refund_address',
    ]);
  if (filters.state) query = query.where('deposit.watch_state', '=', filters.state);
  if (filters.resolved === 'no') query = query.where('deposit.resolution', 'is', null);
  if (filters.resolved === 'yes') query = query.where('deposit.resolution', 'is not', null);
  if (filters.tx_id !== undefined) query = query.where('deposit.tx_id', '=', filters.tx_id);
  if (filters.user_id !== undefined) query = query.where('deposit.user_id', '=', filters.user_id);
  if (filters.from) query = query.where('deposit.created_at', '>=', filters.from);
  if (filters.to) query = query.where('deposit.created_at', '<', filters.to);
  const [rows, count] = await Promise.all([
    query.orderBy('deposit.created_at').orderBy('deposit.tx_id').offset(filters.offset).limit(filters.limit).execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    deposits: rows.map(
      ({
        watch_state: state,
        payee_owner_id: ownerId,
        flagged_at: flaggedAt,
        seen_at: seenAt,
        created_at: createdAt,
        expires_at: expiresAt,
        resolved_at: resolvedAt,
        ...row
      }) => ({
        ...row,
        resolved_at: resolvedAt?.toISOString() ?? null,
        state,
        owner_id: ownerId ?? '',
        flagged_at: flaggedAt?.toISOString() ?? null,
        seen_at: seenAt?.toISOString() ?? null,
        created_at: createdAt.toISOString(),
        expires_at: expiresAt.toISOString(),
      }),
    ),
    total: count.total,
  };
}
