import type { Currency } from './money.ts';

/**
 * The platform's own accounts, one per kind and currency. Funding and
 * correction accounts are where money enters and leaves the ledger, so their
 * balances run negative; fees and settlement hold what users pay the platform.
 */
export const platformAccountKinds = [
  'card-funding',
  'bitcoin-funding',
  'email-transfer-funding',
  'bank-funding',
  'fees',
  'settlement',
  'corrections',
] as const;
export type PlatformAccountKind = (typeof platformAccountKinds)[number];

/** Platform accounts that keep the coins paid into them; the others issue and retire coins. */
export const coinHoldingKinds: readonly PlatformAccountKind[] = ['fees', 'settlement'];

/** An account a posting can name: a user's or merchant's wallet, or a platform account. */
export type AccountId = string;

export function platformAccount(kind: PlatformAccountKind, currency: Currency): AccountId {
  return `platform:${kind}:${currency}`;
}

/** Each owner (a user or a merchant) has at most one wallet per currency, so its id is derived. */
export function walletIdOf(ownerId: string, currency: Currency): AccountId {
  return `wallet:${ownerId}:${currency}`;
}

export function isPlatformAccount(account: AccountId): boolean {
  return account.startsWith('platform:');
}
