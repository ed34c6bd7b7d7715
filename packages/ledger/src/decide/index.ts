import type { LedgerCommand } from '../commands.ts';
import type { TransactionEvent } from '../events.ts';
import type { TransactionRecord } from '../transaction.ts';
import { fundingRules } from './funding.ts';
import { operationRules } from './operations.ts';
import { returnRules } from './returns.ts';
import type { CommandRule, CommandRules } from './rule.ts';
import type { DecideContext, LedgerNeeds, LedgerState } from './state.ts';
import { transferRules } from './transfer.ts';
import { withdrawalRules } from './withdrawal.ts';

const rules: CommandRules = {
  ...fundingRules,
  ...transferRules,
  ...withdrawalRules,
  ...operationRules,
  ...returnRules,
};

const ruleFor = <Command extends LedgerCommand>(command: Command) =>
  rules[command.type] as unknown as CommandRule<Command>;

/**
 * The wallets to lock and the coins to load before `command` can be decided.
 * `tx` is the command's own transaction for a follow-up, and the sale for a return.
 */
export function needsOf(command: LedgerCommand, tx: TransactionRecord | null): LedgerNeeds {
  return ruleFor(command).needs(command, tx);
}

/**
 * The events `command` causes, given the state it is decided against; throws
 * LedgerRuleViolation, and decides nothing, when a rule forbids it.
 */
export function decide(command: LedgerCommand, state: LedgerState, context: DecideContext): TransactionEvent[] {
  return ruleFor(command).decide(command, state, context);
}

export type { DecideContext, LedgerNeeds, LedgerState, SaleState, WalletState, WalletStatus } from './state.ts';
export { cardCoinsMatureAt, DEFAULT_CARD_FUNDS_HOLD_HOURS } from './state.ts';
export { leftToReturn } from './returns.ts';
