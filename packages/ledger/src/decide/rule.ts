import { walletIdOf } from '../accounts.ts';
import type { LedgerCommand, LedgerCommandType } from '../commands.ts';
import type { Currency } from '../money.ts';
import type { TransactionEvent } from '../events.ts';
import type { TransactionRecord } from '../transaction.ts';
import type { DecideContext, LedgerNeeds, LedgerState } from './state.ts';

/**
 * How the ledger handles one kind of command: what it must load, and the
 * events it decides. `needs` sees the transaction so far, because a
 * follow-up finds its wallet there.
 */
export type CommandRule<Command extends LedgerCommand> = {
  needs: (command: Command, tx: TransactionRecord | null) => LedgerNeeds;
  decide: (command: Command, state: LedgerState, context: DecideContext) => TransactionEvent[];
};

export type CommandRules = { [Type in LedgerCommandType]: CommandRule<Extract<LedgerCommand, { type: Type }>> };

export const noCoins = null;

/** The coins a command spends from an owner's wallet: only CON is held as coin serials. */
export function coinsToSpend(ownerId: string, currency: Currency, amount: number): LedgerNeeds['coins'] {
  return currency === 'CON' ? { walletId: walletIdOf(ownerId, 'CON'), amount } : noCoins;
}

/** The coins a withdrawal takes out of an owner's wallet as cash: only matured ones will do. */
export function coinsToCashOut(ownerId: string, currency: Currency, amount: number): LedgerNeeds['coins'] {
  return currency === 'CON' ? { walletId: walletIdOf(ownerId, 'CON'), amount, cashOut: true } : noCoins;
}
