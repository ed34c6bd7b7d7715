import { errorCodes } from '@peeks/contracts';
import { LedgerRuleViolation, walletIdOf, type Cash, type CoinPayment } from '@peeks/ledger';
import type { LedgerOutcome } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import { refuse } from '../../plugins/error-envelope.ts';
import { quoteForCommand, type StoredQuote } from './quotes.ts';

/**
 * A USD or CAD price paid from coins (issue 35, item 3): a person holds
 * coins, a shop prices in dollars. The payment converts the coins at a
 * quote, the one the payer confirmed or, when they named none and their
 * wallet in the price's currency is short, the current price, which the
 * answer states. The quote is claimed for the payment's transaction, so a
 * retry with the same Idempotency-Key pays what the first request saw.
 */

export type CoinPrice = { quote: StoredQuote; paidFromCoins: CoinPayment };

async function availableIn(request: FastifyRequest, ownerId: string, currency: Cash['currency']): Promise<number> {
  const wallet = await request.server.db
    .selectFrom('wallets')
    .select('available')
    .where('wallet_id', '=', walletIdOf(ownerId, currency))
    .executeTakeFirst();
  return wallet?.available ?? 0;
}

/** Whether the ledger has the transaction already: a retry, or a racing request that won, which the ledger replays. */
async function isRecorded(request: FastifyRequest, txId: string): Promise<boolean> {
  const row = await request.server.db
    .selectFrom('ledger_transactions')
    .select('tx_id')
    .where('tx_id', '=', txId)
    .executeTakeFirst();
  return row !== undefined;
}

async function claimedBy(request: FastifyRequest, txId: string): Promise<StoredQuote | undefined> {
  return request.server.db.selectFrom('quotes').selectAll().where('tx_id', '=', txId).executeTakeFirst();
}

/** Gives a quote claimed for `txId` back: the one the payer named is theirs to use again, one priced for it goes. */
async function releaseQuote(request: FastifyRequest, txId: string, namedQuoteId: string | undefined): Promise<void> {
  const db = request.server.db;
  if (namedQuoteId === undefined) await db.deleteFrom('quotes').where('tx_id', '=', txId).execute();
  else await db.updateTable('quotes').set({ tx_id: null }).where('tx_id', '=', txId).execute();
}

/**
 * How `payerOwnerId` pays `price` under `txId`: from coins at a quote, or
 * null to pay from the wallet of the price's own currency (a price in coins,
 * or a payer with enough of that currency who named no quote). A payer
 * short of coins is refused (422) with the quote given back, so nothing stays written.
 */
export async function coinPriceFor(
  request: FastifyRequest,
  payerOwnerId: string,
  price: Cash,
  quoteId: string | undefined,
  txId: string,
): Promise<CoinPrice | null> {
  const { currency, amount } = price;
  if (currency !== 'USD' && currency !== 'CAD') {
    if (quoteId !== undefined)
      throw refuse(409, errorCodes.quoteUnusable, { field: 'quote_id', message: 'A price in coins needs no quote' });
    return null;
  }
  // A retry, or a racing request for the same transaction: what the first one did is replayed, at its quote.
  const claimed = await claimedBy(request, txId);
  if (claimed) return coinPrice(claimed);
  if (await isRecorded(request, txId)) return null;
  if (quoteId === undefined && (await availableIn(request, payerOwnerId, currency)) >= amount) return null;
  const quote = await quoteForCommand(request, { from: 'CON', to: currency, amountOut: amount }, quoteId, txId);
  if ((await availableIn(request, payerOwnerId, 'CON')) < quote.amount_in && !(await isRecorded(request, txId))) {
    await releaseQuote(request, txId, quoteId);
    throw refuse(422, errorCodes.insufficientFunds, { field: 'amount' });
  }
  return coinPrice(quote);
}

const coinPrice = (quote: StoredQuote): CoinPrice => ({
  quote,
  paidFromCoins: { coins: quote.amount_in, rateMicros: quote.rate_micros, quoteId: quote.quote_id },
});
/**
 * Runs a payment from coins; a refusal from the ledger (another payment
 * took the coins meanwhile) gives the quote back before it reaches the client.
 */
export async function payFromCoins(
  request: FastifyRequest,
  txId: string,
  quoteId: string | undefined,
  pay: () => Promise<LedgerOutcome>,
): Promise<LedgerOutcome> {
  try {
    return await pay();
  } catch (error) {
    if (error instanceof LedgerRuleViolation && !(await isRecorded(request, txId)))
      await releaseQuote(request, txId, quoteId);
    throw error;
  }
}
