/**
 * What a card gets back for a return of a card-paid sale: its share of the
 * charge by the sale's cumulative returns, not by each return on its own.
 * Rounding each return on its own (the old rule, at least a cent each) let
 * 193 one-coin returns of a 3,000-coin sale give back the whole 193-cent
 * charge. Cumulatively, the card has been owed
 * `floor(charge × returned / sale)` after returns worth `returned`, so a
 * return owes the step from the sale's returns before it to after it:
 * - a return worth less than a minor unit of the charge's currency owes 0
 *   now and its share accrues: a later return crossing the unit pays it;
 * - the return that completes the sale owes the rest of the charge;
 * - the refunds of any sequence of returns add up to at most the charge.
 * `returnedBefore` is the sale's returns so far, every one of them counted
 * (the ledger serializes a sale's returns, so each sees the ones before).
 */
export interface CardRefundStep {
  /** The card's charge for the sale, in minor units of the charge's currency. */
  charge: number;
  /** The sale's amount, in minor units of the sale's currency. */
  sale: number;
  /** What the sale's earlier returns took back, in the sale's currency. */
  returnedBefore: number;
  /** This return, in the sale's currency. */
  amount: number;
}

/** The card's share of the charge once `returned` of the sale has been returned; exact for any safe integers. */
export function cardRefundedBy(charge: number, sale: number, returned: number): number {
  return Number((BigInt(charge) * BigInt(returned)) / BigInt(sale));
}

/** The refund one return owes the card (0 while its share is under a minor unit). */
export function cardRefundOf({ charge, sale, returnedBefore, amount }: CardRefundStep): number {
  return cardRefundedBy(charge, sale, returnedBefore + amount) - cardRefundedBy(charge, sale, returnedBefore);
}
