import { errorCatalogue, errorCodes, type Quote } from '@peeks/contracts';
import type { Database, QuotesTable } from '@peeks/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { ApiError, refuse } from '../../plugins/error-envelope.ts';
import { sessionWalletOwner } from '../payments/index.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { coinMicrosPerUnit, rateText, termsOf, type CashCurrency, type QuoteAsk } from './price-list.ts';
import { rateInForce } from './rates.ts';

/** How long a quote holds: long enough to read and confirm, short enough that rates do not drift far. */
export const QUOTE_LIFETIME_MS = 60_000;

export type StoredQuote = Selectable<QuotesTable>;

/** Who a quote is for: the person at the keyboard, and the wallet owner they act as. */
interface QuoteHolder {
  userId: number;
  ownerId: string;
}

const holderOf = (request: FastifyRequest): QuoteHolder => ({
  userId: signedIn(request).userId,
  ownerId: sessionWalletOwner(request),
});

const cashSideOf = (ask: QuoteAsk): CashCurrency => (ask.to === 'CON' ? ask.from : ask.to);

/** The terms of `ask` at today's price list, stored for the caller; claimed at once for `txId` when given. */
async function priceAndStore(request: FastifyRequest, ask: QuoteAsk, txId: string | null): Promise<StoredQuote> {
  const app = request.server;
  const now = app.clock();
  const cash = cashSideOf(ask);
  const rate = await rateInForce(app.db, app.exchangeRates, cash, now);
  const terms = termsOf(ask, rate.rateMicros);
  if ('unpriceable' in terms)
    throw refuse(400, errorCodes.invalidAmount, {
      field: 'amountIn' in ask ? 'amount_in' : 'amount_out',
      message:
        terms.unpriceable === 'whole-coins' ? 'Coins are bought in whole coins' : 'The amount is too small to convert',
    });
  const holder = holderOf(request);
  const row = await app.db
    .insertInto('quotes')
    .values({
      quote_id: `qt_${randomUUID()}`,
      owner_id: holder.ownerId,
      user_id: holder.userId,
      from_currency: ask.from,
      to_currency: ask.to,
      amount_in: terms.amountIn,
      amount_out: terms.amountOut,
      fee: terms.fee,
      rate_micros: rate.rateMicros,
      coin_micros_per_unit: coinMicrosPerUnit(rate.rateMicros),
      rate_id: rate.rateId,
      created_at: now,
      expires_at: new Date(now.getTime() + QUOTE_LIFETIME_MS),
      tx_id: txId,
    })
    .onConflict((conflict) => conflict.column('tx_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  // Only a claimed quote can conflict: the transaction has one already, from a request with the same Idempotency-Key.
  return row ?? (await quoteOfTransaction(app.db, txId ?? ''));
}

/** POST /api/account/quote's answer: a fresh quote for the caller. */
export function newQuote(request: FastifyRequest, ask: QuoteAsk): Promise<StoredQuote> {
  return priceAndStore(request, ask, null);
}

async function quoteOfTransaction(db: Kysely<Database>, txId: string): Promise<StoredQuote> {
  return db.selectFrom('quotes').selectAll().where('tx_id', '=', txId).executeTakeFirstOrThrow();
}

/** Whether a stored quote prices the conversion a command asks for. */
function fits(row: StoredQuote, ask: QuoteAsk): boolean {
  if (row.from_currency !== ask.from || row.to_currency !== ask.to) return false;
  return 'amountIn' in ask ? row.amount_in === ask.amountIn : row.amount_out === ask.amountOut;
}

/**
 * The quote a conversion command uses, claimed for its transaction `txId`:
 * the transaction's own when it has one (a retry with the same
 * Idempotency-Key pays what the first request saw); else the quote the
 * command names, which must be the caller's, unused, unexpired and for the
 * same conversion, or 409 with a fresh quote to show; else, with no quote
 * named, a quote at the current price, which the answer states.
 */
export async function quoteForCommand(
  request: FastifyRequest,
  ask: QuoteAsk,
  quoteId: string | undefined,
  txId: string,
): Promise<StoredQuote> {
  const db = request.server.db;
  const own = await db.selectFrom('quotes').selectAll().where('tx_id', '=', txId).executeTakeFirst();
  if (own) return own;
  if (quoteId === undefined) return priceAndStore(request, ask, txId);
  const holder = holderOf(request);
  const now = request.server.clock();
  const claimed = await db
    .updateTable('quotes')
    .set({ tx_id: txId })
    .where('quote_id', '=', quoteId)
    .where('user_id', '=', holder.userId)
    .where('owner_id', '=', holder.ownerId)
    .where('tx_id', 'is', null)
    .where('expires_at', '>', now)
    .where('from_currency', '=', ask.from)
    .where('to_currency', '=', ask.to)
    .where('amountIn' in ask ? 'amount_in' : 'amount_out', '=', 'amountIn' in ask ? ask.amountIn : ask.amountOut)
    .returningAll()
    .executeTakeFirst()
    .catch((error: unknown) => {
      // Another quote claimed for the same transaction: two requests with one key naming different quotes.
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    });
  if (claimed) return claimed;
  const named = await db
    .selectFrom('quotes')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('user_id', '=', holder.userId)
    .where('owner_id', '=', holder.ownerId)
    .executeTakeFirst();
  const expired = named !== undefined && named.tx_id === null && fits(named, ask) && named.expires_at <= now;
  const fresh = await newQuote(request, ask);
  const code = expired ? errorCodes.quoteExpired : errorCodes.quoteUnusable;
  const message = errorCatalogue[code];
  throw new ApiError(409, message, [{ code, field: 'quote_id', message }], { quote: quoteView(fresh) });
}

export function quoteView(row: StoredQuote): Quote {
  return {
    quote_id: row.quote_id,
    from_currency: row.from_currency as Quote['from_currency'],
    to_currency: row.to_currency as Quote['to_currency'],
    amount_in: row.amount_in,
    amount_out: row.amount_out,
    fee: row.fee,
    rate: rateText(row.coin_micros_per_unit),
    rate_micros: row.coin_micros_per_unit,
    usd_rate_micros: row.rate_micros,
    expires_at: row.expires_at.toISOString(),
  };
}
