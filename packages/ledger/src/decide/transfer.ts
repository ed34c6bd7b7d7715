import { errorCodes } from '@peeks/contracts';
import type { LedgerType } from '@peeks/contracts';
import { platformAccount, walletIdOf } from '../accounts.ts';
import { amountLimits, checkAmount } from '../amounts.ts';
import { spendCoins } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { Posting, TransferKind } from '../events.ts';
import type { CommandRules } from './rule.ts';
import { coinsToSpend, noCoins } from './rule.ts';
import { openWallet, requireAvailable, requireTransaction } from './state.ts';

const entryTypes: Record<TransferKind, { sent: LedgerType; received: LedgerType }> = {
  P2P: { sent: 'P2P_SENT', received: 'P2P_RCVD' },
  ACCT_TO_ACCT: { sent: 'ACCT_TO_ACCT', received: 'ACCT_TO_ACCT' },
  PURCHASE: { sent: 'PURCHASE', received: 'PURCHASE' },
};

/** Money received from someone else is held; moving between one's own accounts is not. */
const isHeld = (kind: TransferKind) => kind !== 'ACCT_TO_ACCT';

const HOUR = 3_600_000;

export const transferRules: Pick<CommandRules, 'Transfer' | 'ReleaseHold'> = {
  Transfer: {
    needs: (command) => ({
      wallets: [walletIdOf(command.fromOwnerId, command.currency), walletIdOf(command.toOwnerId, command.currency)],
      coins: coinsToSpend(command.fromOwnerId, command.currency, command.amount + command.fee),
    }),
    decide(command, state, { now, newSerial, holdHours }) {
      const { currency, amount, fee } = command;
      checkAmount(amount, currency, amountLimits.transfer);
      if (fee !== 0) checkAmount(fee, currency, amountLimits.unlimited, 'fee');
      if (command.fromOwnerId === command.toOwnerId) refuse(errorCodes.sendToSelf, `${command.fromOwnerId} sent to themself`);
      const from = openWallet(state, walletIdOf(command.fromOwnerId, currency));
      const to = openWallet(state, walletIdOf(command.toOwnerId, currency));
      requireAvailable(from, amount + fee);

      const types = entryTypes[command.kind];
      const fees = platformAccount('fees', currency);
      const postings: Posting[] = [
        { account: from.walletId, currency, amount: -amount, type: types.sent },
        { account: to.walletId, currency, amount, type: types.received },
      ];
      if (fee > 0) {
        postings.push({ account: from.walletId, currency, amount: -fee, type: 'FEE_PLATFORM' }, { account: fees, currency, amount: fee, type: 'FEE_PLATFORM' });
      }
      const coins = currency === 'CON' ? spendCoins(state.coins, from.walletId, [{ amount, to: to.walletId }, { amount: fee, to: fees }], newSerial) : [];
      const hold = isHeld(command.kind) && holdHours > 0 ? { amount, releaseAt: new Date(now.getTime() + holdHours * HOUR).toISOString() } : null;
      return [{
        type: 'FundsTransferred',
        data: {
          txId: command.txId, kind: command.kind,
          fromWalletId: from.walletId, fromOwnerId: command.fromOwnerId, toWalletId: to.walletId, toOwnerId: command.toOwnerId,
          amount, fee, currency, hold, memo: command.memo, postings, coins,
        },
      }];
    },
  },

  ReleaseHold: {
    needs: (_command, tx) => ({ wallets: tx?.payeeWalletId ? [tx.payeeWalletId] : [], coins: noCoins }),
    decide(command, state, { now }) {
      const tx = requireTransaction(state.tx, command.txId);
      if (tx.holdAmount === null || tx.holdReleaseAt === null || tx.payeeWalletId === null || tx.holdReleasedAt !== null) {
        return refuse(errorCodes.transactionStateInvalid, `${command.txId} has no hold to release`);
      }
      if (now.getTime() < Date.parse(tx.holdReleaseAt)) refuse(errorCodes.transactionStateInvalid, `the hold of ${command.txId} ends at ${tx.holdReleaseAt}`);
      // The wallet may have been closed since: releasing a hold only makes money withdrawable, so it still may.
      if (!state.wallets.has(tx.payeeWalletId)) refuse(errorCodes.walletNotFound, `${tx.payeeWalletId} does not exist`);
      return [{ type: 'HoldReleased', data: { txId: command.txId, walletId: tx.payeeWalletId, amount: tx.holdAmount, postings: [], coins: [] } }];
    },
  },
};
