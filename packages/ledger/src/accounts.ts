import { isCurrency, type Currency } from './money.ts';

/**
 * The platform's own accounts, one per kind and currency. Funding and
 * correction accounts are where money enters and leaves the ledger, so their
 * balances run negative; fees and settlement hold what users pay the platform;
 * exchange accounts hold the platform's position in each currency.
 */
export const platformAccountKinds = [
  'card-funding',
  'bitcoin-funding',
  'email-transfer-funding',
  'bank-funding',
  'fees',
  'settlement',
  'corrections',
  // Where conversions meet: a conversion pays one currency in and the other out (exchange.ts).
  'exchange',
] as const;
export type PlatformAccountKind = (typeof platformAccountKinds)[number];

/** Platform accounts that keep the coins paid into them; the others issue and retire coins. */
export const coinHoldingKinds: readonly PlatformAccountKind[] = ['fees', 'settlement'];

/** An account a posting can name: a user's or merchant's wallet, or a platform account. */
export type AccountId = string;

export function platformAccount(kind: PlatformAccountKind, currency: Currency): AccountId {
  return `platform:${kind}:${currency}`;
}

/** The ledger's name for a user of the product: the owner of their wallets. */
export function userOwnerId(userId: number): string {
  return `user-${userId}`;
}

/** The ledger's name for a merchant: the owner of the wallets its sales are paid into. */
export function merchantOwnerId(merchantId: number): string {
  return `merchant-${merchantId}`;
}

/** Who owns a wallet, from its owner id: a user or a merchant, by their numeric id; null for anything else. */
export function ownerOf(ownerId: string): { kind: 'user' | 'merchant'; id: number } | null {
  const match = /^(user|merchant)-(\d+)$/.exec(ownerId);
  return match ? { kind: match[1] as 'user' | 'merchant', id: Number(match[2]) } : null;
}

/** Each owner (a user or a merchant) has at most one wallet per currency, so its id is derived. */
export function walletIdOf(ownerId: string, currency: Currency): AccountId {
  return `wallet:${ownerId}:${currency}`;
}

/** The owner id and currency of a wallet id (the inverse of walletIdOf); null for a platform account. */
export function walletParts(walletId: AccountId): { ownerId: string; currency: Currency } | null {
  const match = /^wallet:(.+):([A-Z]{3})$/.exec(walletId);
  if (!match?.[1] || !match[2] || !isCurrency(match[2])) return null;
  return { ownerId: match[1], currency: match[2] };
}

export function isPlatformAccount(account: AccountId): boolean {
  return account.startsWith('platform:');
}
