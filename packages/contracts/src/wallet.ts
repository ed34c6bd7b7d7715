import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say } from './fields.ts';
import { depositSummary } from './deposits.ts';
import { currencyCode, transaction } from './transactions.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** Transaction and ledger lists: 15 a page (spec §9), at most 100 at once. */
export const LIST_PAGE_SIZE = 15;
export const LIST_PAGE_MAX = 100;
/** The coin breakdown: 50 a page (spec §9), and no more. */
export const COIN_PAGE_SIZE = 50;
const OFFSET_MAX = 1_000_000;

/**
 * One currency's figures, in its minor units. `balance` is the total
 * (available plus what is reserved for a withdrawal in flight); hold is
 * `available_balance - withdrawable_balance` (money received from others,
 * not withdrawable until the hold time passes, and coins bought by card
 * until they mature). `combined` is true for the
 * coin wallet (CON), whose balance is the sum of the coin serials it holds
 * (the spec's "combined coin balance", the one the dashboard's coin
 * breakdown opens on); false for cash and impressions.
 */
export const balanceLine = z.object({
  currency: currencyCode,
  balance: z.number().int(),
  available_balance: z.number().int(),
  withdrawable_balance: z.number().int(),
  combined: z.boolean(),
});

/**
 * The spec's Balance (§3, platform §7): the top-level figures are the coin
 * wallet's (currency CON, the product's own money), and `balances` lists
 * every open wallet, one per currency.
 */
export const balance = z.object({
  currency: currencyCode,
  balance: z.number().int(),
  available_balance: z.number().int(),
  withdrawable_balance: z.number().int(),
  /** When the coin wallet's next hold releases (ISO 8601); null with nothing on hold. */
  next_hold_release_at: z.string().nullable().optional(),
  /**
   * Coins bought by card (by the person or by whoever paid them with a card)
   * that cannot be withdrawn as cash yet: part of the hold, and not in
   * `withdrawable_balance`; and when the next of them matures.
   */
  card_funds_on_hold: z.number().int().optional(),
  card_funds_release_at: z.string().nullable().optional(),
  balances: z.array(balanceLine),
});
export type Balance = z.infer<typeof balance>;

/** GET /api/account/balance */
export const balanceResponse = successEnvelope({ balance });

/** The spec's Ledger entry (§3): one posting to one of the caller's wallets. `debit_credit` is D or C. */
export const ledgerEntry = z.object({
  ledger_id: z.string(),
  entry_date: z.string(),
  type: z.string(),
  amount: z.number().int(),
  currency: currencyCode,
  debit_credit: z.enum(['D', 'C']),
  /** The transaction the entry belongs to: what list-audit takes as `reference_no`. */
  tx_id: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

export const ledgerListResponse = successEnvelope({ ledgers: z.array(ledgerEntry), total: z.number().int() });
export const transactionListResponse = successEnvelope({ transactions: z.array(transaction), total: z.number().int() });

/** POST /api/account/ledger-details and /api/account/transaction-details: `id`, a ledger id or a transaction id. */
export const detailsRequest = z.object(
  {
    id: z
      .string({ error: say.enter('id') })
      .min(1, say.enter('id'))
      .max(100, say.valid('id'))
      .regex(/^[\x21-\x7e]+$/, say.valid('id')),
  },
  invalidArguments,
);

export const ledgerDetailsResponse = successEnvelope({ ledger: ledgerEntry });
export const transactionDetailsResponse = successEnvelope({ transaction });

const queryNumber = (label: string, min: number, max: number) =>
  z
    .string({ error: say.valid(label) })
    .regex(/^\d{1,7}$/, say.valid(label))
    .transform(Number)
    .refine((value) => value >= min && value <= max, say.valid(label));

/** GET /api/wallet/list-coins?offset&limit: 50 a page, and never more. */
export const coinListQuery = z.object(
  {
    offset: queryNumber('offset', 0, OFFSET_MAX).default(0),
    limit: queryNumber('limit', 1, COIN_PAGE_SIZE).default(COIN_PAGE_SIZE),
  },
  invalidArguments,
);

/** The spec's Coin (§3): a serial and its value in CON minor units (hundredths of a coin). */
export const coin = z.object({ serial: z.string(), value: z.number().int(), currency: currencyCode });
export const coinListResponse = successEnvelope({ coins: z.array(coin), total: z.number().int() });

/** GET /api/wallet/list-audit?reference_no=<transaction id> */
export const auditQuery = z.object({ reference_no: detailsRequest.shape.id }, invalidArguments);

/**
 * The spec's Audit entry (§3): `from_serial` is `serial:from account:currency:value`
 * (the account is empty for a coin minted or burned), `action` what happened
 * to the serial (minted, moved, split, burned, ...). A person sees only the
 * serials their own wallet held: another owner's coin has `from_serial` null,
 * and a coin received from another owner's wallet leaves that account empty;
 * `from_another_wallet` marks both.
 */
export const auditEntry = z.object({
  from_serial: z
    .string()
    .nullable()
    .describe(
      "`serial:from account:currency:value` of a serial the caller's wallet held; null for another wallet's coin",
    ),
  from_another_wallet: z
    .boolean()
    .describe("The coin, or the wallet it came from, was another owner's wallet: that part is withheld"),
  action: z.string(),
  entry_date: z.string(),
});
export const auditListResponse = successEnvelope({ ledgers: z.array(auditEntry) });
export type AuditEntry = z.infer<typeof auditEntry>;

/** The currencies coins are bought with (spec §9). */
export const forexCurrency = z.enum(['USD', 'CAD'], { error: errorCatalogue[errorCodes.currencyMismatch] });

/** POST /api/account/forex-lookup {currency} */
export const forexRequest = z.object({ currency: forexCurrency }, invalidArguments);

/**
 * The rate coins are bought at, as integers so no float touches money:
 * `rate_micros` is the currency's exchange rate to the US dollar, the
 * price list's reference, in millionths (1000000 for USD, 780000 for CAD at 0.78),
 * `coins_per_unit` the spec's 20 coins per currency unit, and
 * `coin_micros_per_unit` their product, millionths of a coin per one unit of
 * `currency` (20000000: 20 coins per US dollar; 15600000: 15.6 per
 * Canadian dollar). A purchase or e-mail transfer of N units brings
 * floor(N × coin_micros_per_unit / 1000000) whole coins.
 */
export const forex = z.object({
  currency: forexCurrency,
  target: z.literal('CON'),
  rate_micros: z.number().int(),
  coins_per_unit: z.number().int(),
  coin_micros_per_unit: z.number().int(),
});
export const forexResponse = successEnvelope({ forex });

/**
 * What GET /api/live pushes, one JSON text frame each: the balance (the same
 * shape as GET /api/account/balance) when the socket opens and after every
 * commit that touches the viewer's money, and `activity`, the transaction
 * that commit wrote or changed, as the viewer sees it (a later message for
 * the same `tx_id` replaces the earlier one, e.g. a deposit cleared), and
 * `deposit`, an e-mail-transfer or bitcoin deposit whose state changed
 * (entered, a payment seen, a confirmation, cleared, expired, rejected,
 * flagged), as GET /api/account/deposits lists it.
 * Closing codes: 1001 the server is going away, 4401 the session ended or
 * now acts for someone else (sign in, or reconnect).
 */
export const liveMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('balance'), balance }),
  z.object({ type: z.literal('activity'), transaction }),
  z.object({ type: z.literal('deposit'), deposit: depositSummary }),
]);
export type LiveMessage = z.infer<typeof liveMessage>;
export const LIVE_SESSION_ENDED = 4401;
