/**
 * What a card gets back for a return of a card-paid sale: its share of the
 * charge by the sale's cumulative returns, not by each return on its own.
 * Rounding each return on its own (the old rule, at least a cent each) let
 * 193 one-coin returns of a 3,000-coin sale give back the whole 193-cent
 * charge. Cumulatively, the card is owed `floor(charge × returned / sale)`
 * once returns worth `returned` stand, so a return owes that, after it,
 * less what the standing returns' refunds already came to:
 * - a return worth less than a minor unit of the charge's currency owes 0
 *   now and its share accrues: a later return crossing the unit pays it;
 * - the return that completes the sale owes the rest of the charge;
 * - the refunds of any sequence of returns add up to at most the charge.
 * A return whose refund the processor refused (`failed`) does not stand:
 * neither its amount nor its refund counts, so the merchant can return that
 * part again and its refund is asked for again. Counting by the refunds
 * themselves, rather than by the share of the returns before, keeps this
 * exact when a return fails after later ones were decided against it.
 * The ledger serializes a sale's returns, so each sees the ones before.
 */
export interface CardRefundStep {
  /** The card's charge for the sale, in minor units of the charge's currency. */
  charge: number;
  /** The sale's amount, in minor units of the sale's currency. */
  sale: number;
  /** What the sale's standing returns (every one not failed) took back, in the sale's currency. */
  returnedBefore: number;
  /** What those returns' refunds came to, in the charge's currency. */
  refundedBefore: number;
  /** This return, in the sale's currency. */
  amount: number;
}

/** The card's share of the charge once `returned` of the sale has been returned; exact for any safe integers. */
export function cardRefundedBy(charge: number, sale: number, returned: number): number {
  return Number((BigInt(charge) * BigInt(returned)) / BigInt(sale));
}

/** The refund one return owes the card (0 while its share is under a minor unit, or already paid). */
export function cardRefundOf({ charge, sale, returnedBefore, refundedBefore, amount }: CardRefundStep): number {
  return Math.max(0, cardRefundedBy(charge, sale, returnedBefore + amount) - refundedBefore);
}
