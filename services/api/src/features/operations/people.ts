import { FINANCE_OPERATOR_ROLE, type PersonView } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { userOwnerId } from '@peeks/ledger';
import { walletsOf } from '@peeks/ledger-store';
import { sql, type Kysely } from 'kysely';

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

const personColumns = [
  'user_id',
  'username',
  'email',
  'user_type',
  'role',
  'account_status',
  'is_banned',
  'created_at',
] as const;

const toPerson = <Row extends { created_at: Date }>(row: Row) => ({ ...row, created_at: row.created_at.toISOString() });

/** Users whose username or e-mail starts with `q`, in any letter case, by username. */
export async function findPeople(db: Kysely<Database>, q: string, limit: number) {
  const prefix = `${likeLiteral(q.trim())}%`;
  const rows = await db
    .selectFrom('users')
    .select(personColumns)
    .where((eb) => eb.or([eb('username', 'ilike', prefix), eb('email', 'ilike', prefix)]))
    .orderBy('username')
    .limit(limit)
    .execute();
  return rows.map(toPerson);
}

/** One user as support sees them, or undefined: wallets, open holds, latest transactions and deposits, live sessions. */
export async function personView(
  db: Kysely<Database>,
  userId: number,
  now: Date,
): Promise<Omit<PersonView, 'response'> | undefined> {
  const person = await db.selectFrom('users').select(personColumns).where('user_id', '=', userId).executeTakeFirst();
  if (!person) return undefined;
  const ownerId = userOwnerId(userId);
  const mine = db
    .selectFrom('ledger_transactions')
    .where((eb) => eb.or([eb('payer_owner_id', '=', ownerId), eb('payee_owner_id', '=', ownerId)]))
    .select([
      'tx_id',
      'entry_date',
      'type',
      'state',
      'amount',
      'currency',
      'payment_method_type',
      'reference',
      'reason',
      sql<'C' | 'D'>`CASE WHEN payer_owner_id = ${ownerId} THEN 'D' ELSE 'C' END`.as('debit_credit'),
    ])
    .orderBy('entry_date', 'desc')
    .orderBy('tx_id', 'desc')
    .limit(20);
  const [wallets, holds, transactions, deposits, sessions] = await Promise.all([
    walletsOf(db, ownerId),
    db
      .selectFrom('ledger_transactions')
      .select(['tx_id', 'hold_amount', 'currency', 'hold_release_at'])
      .where('payee_owner_id', '=', ownerId)
      .where('hold_released_at', 'is', null)
      .where('hold_release_at', 'is not', null)
      .orderBy('hold_release_at')
      .limit(100)
      .execute(),
    mine.execute(),
    mine.where('type', '=', 'deposit').execute(),
    db
      .selectFrom('sessions')
      .select([
        sql<string>`encode(substring(session_key from 1 for 12), 'hex')`.as('session_id'),
        'created_at',
        'last_seen_at',
        'expires_at',
      ])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .execute(),
  ]);
  const movement = (row: (typeof transactions)[number]) => ({ ...row, entry_date: row.entry_date.toISOString() });
  return {
    person: toPerson(person),
    owner_id: ownerId,
    wallets: wallets.map((wallet) => ({
      wallet_id: wallet.walletId,
      currency: wallet.currency,
      total: wallet.total,
      available: wallet.available,
      withdrawable: wallet.withdrawable,
      reserved: wallet.reserved,
      status: wallet.status,
    })),
    holds: holds.map((hold) => ({
      tx_id: hold.tx_id,
      amount: hold.hold_amount ?? 0,
      currency: hold.currency,
      release_at: hold.hold_release_at?.toISOString() ?? '',
    })),
    transactions: transactions.map(movement),
    deposits: deposits.map(movement),
    sessions: sessions.map((session) => ({
      session_id: session.session_id,
      created_at: session.created_at.toISOString(),
      last_seen_at: session.last_seen_at.toISOString(),
      expires_at: session.expires_at.toISOString(),
    })),
  };
}

/**
 * Operators' actions, newest first: events whose actor is a user who is a
 * finance operator now. Keyset paging on the position, as the event log.
 */
export async function operatorActions(
  db: Kysely<Database>,
  filters: { user_id?: number | undefined; before?: number | undefined; limit: number },
) {
  let operators = db.selectFrom('users').select(['user_id', 'username']).where('role', '=', FINANCE_OPERATOR_ROLE);
  if (filters.user_id !== undefined) operators = operators.where('user_id', '=', filters.user_id);
  const names = new Map((await operators.execute()).map((row) => [userOwnerId(row.user_id), row.username]));
  if (names.size === 0) return { actions: [], next_before: null };
  let query = db
    .selectFrom('events')
    .select(['position', 'created_at', 'type', 'stream_id', 'data', sql<string>`metadata->>'actor'`.as('actor')])
    .where(sql<string>`metadata->>'actor'`, 'in', [...names.keys()]);
  if (filters.before !== undefined) query = query.where('position', '<', filters.before);
  const rows = await query
    .orderBy('position', 'desc')
    .limit(filters.limit + 1)
    .execute();
  const page = rows.slice(0, filters.limit);
  return {
    actions: page.map((row) => {
      const data = row.data as { txId?: unknown; reason?: unknown };
      return {
        position: row.position,
        created_at: row.created_at.toISOString(),
        operator_id: row.actor,
        operator_username: names.get(row.actor) ?? '',
        type: row.type,
        stream_id: row.stream_id,
        tx_id: typeof data.txId === 'string' ? data.txId : null,
        reason: typeof data.reason === 'string' ? data.reason : null,
      };
    }),
    next_before: rows.length > filters.limit ? (page.at(-1)?.position ?? null) : null,
  };
}
