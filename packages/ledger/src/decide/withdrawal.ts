import { platformAccount, walletIdOf } from '../accounts.ts';
import { amountLimits, checkAmount } from '../amounts.ts';
import { spendCoins, type CoinStep } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { Posting, WithdrawalDestination } from '../events.ts';
import { conversionLegs } from '../exchange.ts';
import type { TransactionRecord } from '../transaction.ts';
import type { CommandRules } from './rule.ts';
import { coinsToCashOut, noCoins } from './rule.ts';
import { cashableCoins, openWallet, requireCashCurrency, requireTransaction, requireWithdrawable } from './state.ts';

const payoutAccountOf = (kind: WithdrawalDestination['kind']) => (kind === 'card' ? 'card-funding' : 'bank-funding');

/**
 * A withdrawal reserves the money (and, in coins, the exact serials) when it
 * is requested; the payout then burns them, or a failure gives them back.
 */
export const withdrawalRules: Pick<CommandRules, 'RequestWithdrawal' | 'ProcessWithdrawal' | 'FailWithdrawal'> = {
  RequestWithdrawal: {
    needs: (command) => ({
      wallets: [walletIdOf(command.ownerId, command.currency)],
      coins: coinsToCashOut(command.ownerId, command.currency, command.amount),
    }),
    decide(command, state, { now, newSerial }) {
      if (command.currency === 'IMP') refuse('currency_mismatch', 'impressions cannot be withdrawn');
      checkAmount(command.amount, command.currency, amountLimits.unlimited);
      const wallet = openWallet(state, walletIdOf(command.ownerId, command.currency));
      requireWithdrawable(wallet, command.amount);
      const coins =
        command.currency === 'CON'
          ? spendCoins(
              cashableCoins(state.coins, wallet.walletId, command.amount, now),
              wallet.walletId,
              [{ amount: command.amount, reserve: true }],
              newSerial,
            )
          : [];
      return [
        {
          type: 'WithdrawalRequested',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            amount: command.amount,
            currency: command.currency,
            destination: command.destination,
            ...(command.payout === undefined ? {} : { payout: command.payout }),
            ...(command.quoteId === undefined ? {} : { quoteId: command.quoteId }),
            postings: [],
            coins,
          },
        },
      ];
    },
  },

  ProcessWithdrawal: {
    needs: (_command, tx) => ({ wallets: tx?.payerWalletId ? [tx.payerWalletId] : [], coins: noCoins }),
    decide(command, state) {
      const tx = pendingWithdrawal(command.txId, state.tx);
      const kind = payoutAccountOf(tx.paymentMethodType === 'card' ? 'card' : 'bank');
      const coins = tx.reservedCoins.map((coin): CoinStep => ({ action: 'burn', ...coin, from: tx.walletId }));
      const paid = command.payout;
      let postings: Posting[];
      if (paid === undefined || paid.currency === tx.currency) {
        if (paid !== undefined && paid.amount !== tx.amount)
          refuse('invalid_amount', `a payout of ${paid.amount} does not pay out ${tx.amount} ${tx.currency}`);
        postings = [
          { account: tx.walletId, currency: tx.currency, amount: -tx.amount, type: 'WITHDRAW' },
          { account: platformAccount(kind, tx.currency), currency: tx.currency, amount: tx.amount, type: 'WITHDRAW' },
        ];
      } else {
        // Coins paid out as cash: a conversion, one balanced leg per currency.
        if (tx.currency !== 'CON') refuse('currency_mismatch', `${tx.currency} is paid out as itself`);
        requireCashCurrency(paid.currency);
        checkAmount(paid.amount, paid.currency, amountLimits.unlimited, 'payout');
        postings = conversionLegs(
          { account: tx.walletId, amount: tx.amount, currency: 'CON' },
          { account: platformAccount(kind, paid.currency), ...paid },
          'WITHDRAW',
        );
      }
      return [
        {
          type: 'WithdrawalProcessed',
          data: {
            txId: command.txId,
            walletId: tx.walletId,
            amount: tx.amount,
            payoutReference: command.payoutReference,
            ...(paid === undefined ? {} : { payout: paid }),
            postings,
            coins,
          },
        },
      ];
    },
  },

  FailWithdrawal: {
    needs: (_command, tx) => ({ wallets: tx?.payerWalletId ? [tx.payerWalletId] : [], coins: noCoins }),
    decide(command, state) {
      const tx = pendingWithdrawal(command.txId, state.tx);
      const coins = tx.reservedCoins.map((coin): CoinStep => ({ action: 'release', ...coin, holder: tx.walletId }));
      return [
        {
          type: 'WithdrawalFailed',
          data: {
            txId: command.txId,
            walletId: tx.walletId,
            amount: tx.amount,
            reason: command.reason,
            postings: [],
            coins,
          },
        },
      ];
    },
  },
};

function pendingWithdrawal(txId: string, record: TransactionRecord | null) {
  const tx = requireTransaction(record, txId);
  if (tx.txClass !== 'WithdrawalRequested' || tx.state !== 'pending' || tx.payerWalletId === null) {
    return refuse('transaction_state_invalid', `${txId} is not a pending withdrawal (${tx.txClass}, ${tx.state})`);
  }
  return { ...tx, walletId: tx.payerWalletId };
}
