import type { AccountId } from './accounts.ts';
import { refuse } from './errors.ts';

/** A coin: a serial and its value in CON minor units. */
export type Coin = { serial: string; value: number };

/**
 * One step in the life of a coin serial, as an event records it. A split
 * retires its parent and creates two children in the same holder; the trail
 * of any serial leads back through its parents to the mint.
 */
export type CoinStep =
  | { action: 'mint'; serial: string; value: number; to: AccountId }
  | { action: 'split'; serial: string; value: number; holder: AccountId; into: [Coin, Coin] }
  | { action: 'move'; serial: string; value: number; from: AccountId; to: AccountId }
  | { action: 'reserve'; serial: string; value: number; holder: AccountId }
  | { action: 'release'; serial: string; value: number; holder: AccountId }
  | { action: 'burn'; serial: string; value: number; from: AccountId };

export type NewSerial = () => string;

/**
 * Largest coins first, so a payment moves as few serials as it can; serial
 * order breaks ties so that the same inventory always gives the same choice.
 */
export function byPreference(a: Coin, b: Coin): number {
  return b.value - a.value || (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0);
}

/**
 * The coins that pay `amount` out of `held`: whole coins, and when the last
 * one is too big, a split of it into the part that pays and the change.
 * `rest` is what the holder keeps, change included, for a further payment.
 */
export function pickCoins(
  held: readonly Coin[],
  amount: number,
  holder: AccountId,
  newSerial: NewSerial,
): { paying: Coin[]; splits: CoinStep[]; rest: Coin[] } {
  const paying: Coin[] = [];
  const splits: CoinStep[] = [];
  const rest: Coin[] = [];
  let remaining = amount;
  for (const coin of [...held].sort(byPreference)) {
    if (remaining === 0) rest.push(coin);
    else if (coin.value <= remaining) {
      paying.push(coin);
      remaining -= coin.value;
    } else {
      const part: Coin = { serial: newSerial(), value: remaining };
      const change: Coin = { serial: newSerial(), value: coin.value - remaining };
      splits.push({ action: 'split', serial: coin.serial, value: coin.value, holder, into: [part, change] });
      paying.push(part);
      rest.push(change);
      remaining = 0;
    }
  }
  if (remaining > 0) refuse('insufficient_funds', `coins of ${holder} are ${remaining} short of ${amount}`);
  return { paying, splits, rest };
}

/** Where a part of a payment in coins goes: to another holder, into a reservation, or out of existence. */
export type CoinLeg =
  { amount: number; to: AccountId } | { amount: number; reserve: true } | { amount: number; burn: true };

/**
 * The coin steps that pay each leg in turn from `held` (the holder's coins),
 * splitting at most one coin per leg. Legs of zero are skipped.
 */
export function spendCoins(
  held: readonly Coin[],
  holder: AccountId,
  legs: readonly CoinLeg[],
  newSerial: NewSerial,
): CoinStep[] {
  const steps: CoinStep[] = [];
  let purse: readonly Coin[] = held;
  for (const leg of legs) {
    if (leg.amount === 0) continue;
    const { paying, splits, rest } = pickCoins(purse, leg.amount, holder, newSerial);
    steps.push(...splits);
    for (const coin of paying) {
      if ('to' in leg) steps.push({ action: 'move', ...coin, from: holder, to: leg.to });
      else if ('reserve' in leg) steps.push({ action: 'reserve', ...coin, holder });
      else steps.push({ action: 'burn', ...coin, from: holder });
    }
    purse = rest;
  }
  return steps;
}

export function mintCoin(value: number, to: AccountId, newSerial: NewSerial): CoinStep {
  return { action: 'mint', serial: newSerial(), value, to };
}

/** The coins a list of steps leaves reserved in `holder` (a withdrawal's reservation). */
export function reservedBy(steps: readonly CoinStep[]): Coin[] {
  return steps.flatMap((step) => (step.action === 'reserve' ? [{ serial: step.serial, value: step.value }] : []));
}
