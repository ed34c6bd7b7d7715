/**
 * A wallet's balance in minor units. total = available + reserved (reserved:
 * set aside for an in-flight withdrawal); withdrawable ≤ available, and
 * hold = available − withdrawable is money received from others that is not
 * yet released.
 */
export type WalletBalance = {
  total: number;
  available: number;
  withdrawable: number;
  reserved: number;
};

/**
 * What one event does to one wallet: deltas, except that withdrawable is
 * then capped at the new available (the projector's LEAST). Spending thus
 * uses held money first, so a user keeps as much withdrawable money as they
 * can, and a release never frees more than is there.
 */
export type BalanceChange = WalletBalance;

/** The balance changes of the ledger's movements, named for what they do. */
export const balanceChange = {
  /** Money of the owner's own (a purchase, a deposit): withdrawable at once. */
  credited: (amount: number): BalanceChange => ({
    total: amount,
    available: amount,
    withdrawable: amount,
    reserved: 0,
  }),
  /** Money from someone else: spendable now, withdrawable after the hold. */
  creditedOnHold: (amount: number): BalanceChange => ({
    total: amount,
    available: amount,
    withdrawable: 0,
    reserved: 0,
  }),
  /**
   * Money back that may already be paid out elsewhere (a card refund the
   * processor refused: the card may have had it back another way): spendable,
   * not withdrawable as cash until finance settles it.
   */
  creditedSpendable: (amount: number): BalanceChange => ({
    total: amount,
    available: amount,
    withdrawable: 0,
    reserved: 0,
  }),
  debited: (amount: number): BalanceChange => ({ total: -amount, available: -amount, withdrawable: 0, reserved: 0 }),
  holdReleased: (amount: number): BalanceChange => ({ total: 0, available: 0, withdrawable: amount, reserved: 0 }),
  reserved: (amount: number): BalanceChange => ({
    total: 0,
    available: -amount,
    withdrawable: -amount,
    reserved: amount,
  }),
  reservationReturned: (amount: number): BalanceChange => ({
    total: 0,
    available: amount,
    withdrawable: amount,
    reserved: -amount,
  }),
  reservationPaidOut: (amount: number): BalanceChange => ({
    total: -amount,
    available: 0,
    withdrawable: 0,
    reserved: -amount,
  }),
};

/** A balance after a change, as the projector writes it: the deltas added, withdrawable then capped at the new available. */
export function applyBalanceChange(balance: WalletBalance, change: BalanceChange): WalletBalance {
  const available = balance.available + change.available;
  return {
    total: balance.total + change.total,
    available,
    withdrawable: Math.min(balance.withdrawable + change.withdrawable, available),
    reserved: balance.reserved + change.reserved,
  };
}

/**
 * What of a coin wallet can be withdrawn as cash: its withdrawable money
 * (past the hold on money from others), and no more than its held coins
 * that have matured, which are all a withdrawal may take. `maturing` is the
 * value of its held coins bought by card that have not (held coins sum to
 * `available`).
 */
export function withdrawableAsCash(balance: WalletBalance, maturing: number): number {
  return Math.max(0, Math.min(balance.withdrawable, balance.available - maturing));
}
