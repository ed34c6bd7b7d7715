import type { Balance } from '@peeks/contracts';
import { COINS_PER_UNIT, type Currency, type RateMicros, type WalletState, withdrawableAsCash } from '@peeks/ledger';

/**
 * The spec's Balance from an owner's wallets: every open wallet as a line,
 * and the coin wallet's figures on top (CON is the product's own money; a
 * missing coin wallet reads as zero). `combined` marks the coin wallet,
 * whose balance is the sum of the serials it holds; its withdrawable
 * figure leaves out `cardFundsOnHold`, the held coins bought by card that
 * have not matured.
 */
export function balanceOf(wallets: readonly WalletState[], cardFundsOnHold = 0): Balance {
  const balances = wallets
    .filter((wallet) => wallet.status === 'open')
    .map((wallet) => ({
      currency: wallet.currency,
      balance: wallet.total,
      available_balance: wallet.available,
      withdrawable_balance:
        wallet.currency === 'CON' ? withdrawableAsCash(wallet, cardFundsOnHold) : wallet.withdrawable,
      combined: wallet.currency === 'CON',
    }));
  const coins = balances.find((line) => line.combined);
  return {
    currency: 'CON',
    balance: coins?.balance ?? 0,
    available_balance: coins?.available_balance ?? 0,
    withdrawable_balance: coins?.withdrawable_balance ?? 0,
    balances,
  };
}

/**
 * The rate coins are bought at with `currency` (spec §9: 20 coins per unit
 * times its exchange rate to the US dollar, which is 1 for the dollar).
 */
export function forexOf(currency: Extract<Currency, 'USD' | 'CAD'>, rateMicros: RateMicros) {
  return {
    currency,
    target: 'CON' as const,
    rate_micros: rateMicros,
    coins_per_unit: COINS_PER_UNIT,
    coin_micros_per_unit: COINS_PER_UNIT * rateMicros,
  };
}
