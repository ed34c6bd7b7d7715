import type { AccountId } from './accounts.ts';
import { refuse } from './errors.ts';

/**
 * A coin: a serial and its value in CON minor units. A coin bought by card
 * carries when it matures (ISO 8601): before then it can be spent inside
 * the wallet, by anyone who holds it, but not withdrawn as cash. The coins
 * split from it keep it, so passing it on does not cash it out sooner.
 * Absent: withdrawable as soon as its holder's other rules allow.
 */
export type Coin = { serial: string; value: number; maturesAt?: string };

/**
 * One step in the life of a coin serial, as an event records it. A split
 * retires its parent and creates two children in the same holder; the trail
 * of any serial leads back through its parents to the mint.
 */
export type CoinStep =
  | { action: 'mint'; serial: string; value: number; to: AccountId; maturesAt?: string }
  | { action: 'split'; serial: string; value: number; holder: AccountId; into: [Coin, Coin] }
  | { action: 'move'; serial: string; value: number; from: AccountId; to: AccountId; maturesAt?: string }
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
      const part: Coin = withMaturity({ serial: newSerial(), value: remaining }, coin.maturesAt);
      const change: Coin = withMaturity({ serial: newSerial(), value: coin.value - remaining }, coin.maturesAt);
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
      // A move says the coin's maturity, so that whoever decides against the receiver's coins next knows it.
      if ('to' in leg) steps.push({ action: 'move', ...coin, from: holder, to: leg.to });
      else if ('reserve' in leg) steps.push({ action: 'reserve', serial: coin.serial, value: coin.value, holder });
      else steps.push({ action: 'burn', serial: coin.serial, value: coin.value, from: holder });
    }
    purse = rest;
  }
  return steps;
}

/** A new coin; one bought by card names when it matures. */
export function mintCoin(value: number, to: AccountId, newSerial: NewSerial, maturesAt?: string): CoinStep {
  return withMaturity({ action: 'mint', serial: newSerial(), value, to }, maturesAt);
}

/** The object with `maturesAt` when there is one, and without the key otherwise: coins that always matured stay as they were. */
function withMaturity<Value extends object>(
  value: Value,
  maturesAt: string | undefined,
): Value & { maturesAt?: string } {
  return maturesAt === undefined ? value : { ...value, maturesAt };
}

/** Whether a coin can be withdrawn as cash at `now`. */
export const isMatured = (coin: Coin, now: Date): boolean =>
  coin.maturesAt === undefined || Date.parse(coin.maturesAt) <= now.getTime();

/**
 * The coins of `held` that can be withdrawn as cash at `now`, and, when
 * they are short of `amount`, the time enough of the rest will have matured
 * (null when `held` is short even then).
 */
export function maturedCoins(
  held: readonly Coin[],
  amount: number,
  now: Date,
): { matured: Coin[]; enoughFrom: string | null } {
  const matured = held.filter((coin) => isMatured(coin, now));
  let sum = matured.reduce((total, coin) => total + coin.value, 0);
  if (sum >= amount) return { matured, enoughFrom: null };
  const maturing = held
    .filter((coin) => !isMatured(coin, now))
    .sort((a, b) => Date.parse(a.maturesAt ?? '') - Date.parse(b.maturesAt ?? ''));
  for (const coin of maturing) {
    sum += coin.value;
    if (sum >= amount) return { matured, enoughFrom: coin.maturesAt ?? null };
  }
  return { matured, enoughFrom: null };
}

/** The coins a list of steps leaves reserved in `holder` (a withdrawal's reservation). */
export function reservedBy(steps: readonly CoinStep[]): Coin[] {
  return steps.flatMap((step) => (step.action === 'reserve' ? [{ serial: step.serial, value: step.value }] : []));
}
