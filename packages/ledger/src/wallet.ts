import { walletIdOf } from './accounts.ts';
import type { WalletState } from './decide/state.ts';
import { refuse } from './errors.ts';
import type { WalletEvent } from './events.ts';
import type { Currency } from './money.ts';

/** Opening a wallet that is already open changes nothing, so registration can retry safely. */
export function decideOpenWallet(
  ownerId: string,
  currency: Currency,
  existing: WalletState | undefined,
): WalletEvent[] {
  if (existing) return [];
  return [{ type: 'WalletOpened', data: { walletId: walletIdOf(ownerId, currency), ownerId, currency } }];
}

/** Only an empty wallet closes: money is never stranded in a closed one. */
export function decideCloseWallet(walletId: string, existing: WalletState | undefined): WalletEvent[] {
  if (!existing) return refuse('wallet_not_found', `${walletId} does not exist`);
  if (existing.status === 'closed') return [];
  if (existing.total !== 0) refuse('wallet_not_empty', `${walletId} holds ${existing.total}`);
  return [{ type: 'WalletClosed', data: { walletId } }];
}
