import { platformAccount, walletIdOf } from '../accounts.ts';
import { amountLimits, checkAmount } from '../amounts.ts';
import { mintCoin, spendCoins, type CoinStep } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { Posting } from '../events.ts';
import type { CommandRules } from './rule.ts';
import { coinsToCashOut, coinsToSpend, noCoins } from './rule.ts';
import { cashableCoins, openWallet, requireAvailable } from './state.ts';

/** What finance runs: merchant settlement batches, platform fees and corrections. */
export const operationRules: Pick<CommandRules, 'SettleMerchantBatch' | 'ChargePlatformFee' | 'CorrectBalance'> = {
  SettleMerchantBatch: {
    needs: (command) => ({
      wallets: [walletIdOf(command.merchantId, command.currency)],
      // Settlement pays the merchant out: like a withdrawal, it takes only matured coins.
      coins: coinsToCashOut(command.merchantId, command.currency, command.amount),
    }),
    decide(command, state, { now, newSerial }) {
      const { amount, fee, currency } = command;
      checkAmount(amount, currency, amountLimits.unlimited);
      if (fee !== 0) checkAmount(fee, currency, amountLimits.unlimited, 'fee');
      if (fee > amount) refuse('invalid_amount', `fee ${fee} is more than the batch ${amount}`);
      const wallet = openWallet(state, walletIdOf(command.merchantId, currency));
      requireAvailable(wallet, amount);
      const settlement = platformAccount('settlement', currency);
      const fees = platformAccount('fees', currency);
      const postings: Posting[] = [
        { account: wallet.walletId, currency, amount: -amount, type: 'SETTLE_SEND' },
        { account: settlement, currency, amount: amount - fee, type: 'SETTLE_RCV' },
      ];
      if (fee > 0) postings.push({ account: fees, currency, amount: fee, type: 'FEE_PLATFORM' });
      const coins =
        currency === 'CON'
          ? spendCoins(
              cashableCoins(state.coins, wallet.walletId, amount, now),
              wallet.walletId,
              [
                { amount: amount - fee, to: settlement },
                { amount: fee, to: fees },
              ],
              newSerial,
            )
          : [];
      return [
        {
          type: 'MerchantBatchSettled',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            merchantId: command.merchantId,
            batchId: command.batchId,
            amount,
            fee,
            currency,
            postings,
            coins,
          },
        },
      ];
    },
  },

  ChargePlatformFee: {
    needs: (command) => ({
      wallets: [walletIdOf(command.ownerId, command.currency)],
      coins: coinsToSpend(command.ownerId, command.currency, command.amount),
    }),
    decide(command, state, { newSerial }) {
      const { amount, currency } = command;
      checkAmount(amount, currency, amountLimits.unlimited);
      const wallet = openWallet(state, walletIdOf(command.ownerId, currency));
      requireAvailable(wallet, amount);
      const fees = platformAccount('fees', currency);
      return [
        {
          type: 'PlatformFeeCharged',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            amount,
            currency,
            reason: command.reason,
            postings: [
              { account: wallet.walletId, currency, amount: -amount, type: 'FEE_PLATFORM' },
              { account: fees, currency, amount, type: 'FEE_PLATFORM' },
            ],
            coins:
              currency === 'CON' ? spendCoins(state.coins, wallet.walletId, [{ amount, to: fees }], newSerial) : [],
          },
        },
      ];
    },
  },

  /** A signed amount: positive credits the wallet (coins minted), negative debits it (coins burned). */
  CorrectBalance: {
    needs: (command) => ({
      wallets: [walletIdOf(command.ownerId, command.currency)],
      coins: command.amount < 0 ? coinsToSpend(command.ownerId, command.currency, -command.amount) : noCoins,
    }),
    decide(command, state, { newSerial }) {
      const { amount, currency } = command;
      checkAmount(Math.abs(amount), currency, amountLimits.unlimited);
      if (command.reason.trim() === '') refuse('required_field', 'a correction needs a reason');
      const wallet = openWallet(state, walletIdOf(command.ownerId, currency));
      if (amount < 0) requireAvailable(wallet, -amount);
      const corrections = platformAccount('corrections', currency);
      let coins: CoinStep[] = [];
      if (currency === 'CON') {
        coins =
          amount > 0
            ? [mintCoin(amount, wallet.walletId, newSerial)]
            : spendCoins(state.coins, wallet.walletId, [{ amount: -amount, burn: true }], newSerial);
      }
      return [
        {
          type: 'BalanceCorrected',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            amount,
            currency,
            reason: command.reason,
            operatorId: command.operatorId,
            postings: [
              { account: wallet.walletId, currency, amount, type: 'CORR' },
              { account: corrections, currency, amount: -amount, type: 'CORR' },
            ],
            coins,
          },
        },
      ];
    },
  },
};
