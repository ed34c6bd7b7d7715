import { platformAccount, walletIdOf, type AccountId } from '../accounts.ts';
import { amountLimits, checkAmount, coinsForCash } from '../amounts.ts';
import { mintCoin } from '../coins.ts';
import { conversionLegs } from '../exchange.ts';
import { refuse } from '../errors.ts';
import type { Cash, DepositMethod, Posting } from '../events.ts';
import type { TransactionRecord } from '../transaction.ts';
import type { CommandRules } from './rule.ts';
import { noCoins } from './rule.ts';
import { cardCoinsMatureAt, openWallet, requireCashCurrency, requireTransaction } from './state.ts';

const fundingAccountOf = (method: DepositMethod) =>
  method === 'bitcoin' ? 'bitcoin-funding' : 'email-transfer-funding';

/** Money entering the ledger: coin purchases, card deposits, and deposits that clear later. */
export const fundingRules: Pick<
  CommandRules,
  | 'PurchaseCoins'
  | 'DepositByCard'
  | 'EnterDeposit'
  | 'ClearDeposit'
  | 'RejectDeposit'
  | 'ExpireDeposit'
  | 'CreditBitcoinPayment'
> = {
  PurchaseCoins: {
    needs: (command) => ({ wallets: [walletIdOf(command.ownerId, 'CON')], coins: noCoins }),
    decide(command, state, context) {
      requireCashCurrency(command.charge.currency);
      checkAmount(command.charge.amount, command.charge.currency, amountLimits.funding, 'charge');
      const wallet = openWallet(state, walletIdOf(command.ownerId, 'CON'));
      const coins = coinsForCash(command.charge.amount, command.charge.currency, command.rateMicros);
      if (coins <= 0)
        refuse('amount_not_positive', `${command.charge.amount} ${command.charge.currency} buys no whole coin`);
      // The charge enters through the card-funding account of its currency and buys the coins through the exchange.
      const funding = platformAccount('card-funding', command.charge.currency);
      return [
        {
          type: 'CoinsPurchased',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            amount: coins,
            charge: command.charge,
            rateMicros: command.rateMicros,
            paymentMethod: command.paymentMethod,
            ...(command.quoteId === undefined ? {} : { quoteId: command.quoteId }),
            postings: conversionLegs(
              { account: funding, ...command.charge },
              { account: wallet.walletId, amount: coins, currency: 'CON' },
              'PURCHASE_COINS',
            ),
            // Bought by card: spendable at once, withdrawable as cash once the coins mature.
            coins: [mintCoin(coins, wallet.walletId, context.newSerial, cardCoinsMatureAt(context))],
          },
        },
      ];
    },
  },

  DepositByCard: {
    needs: (command) => ({ wallets: [walletIdOf(command.ownerId, command.currency)], coins: noCoins }),
    decide(command, state) {
      requireCashCurrency(command.currency);
      checkAmount(command.amount, command.currency, amountLimits.funding);
      const wallet = openWallet(state, walletIdOf(command.ownerId, command.currency));
      const funding = platformAccount('card-funding', command.currency);
      return [
        {
          type: 'CardDepositMade',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            amount: command.amount,
            currency: command.currency,
            paymentMethod: command.paymentMethod,
            postings: [
              { account: wallet.walletId, currency: command.currency, amount: command.amount, type: 'DEP_CC' },
              { account: funding, currency: command.currency, amount: -command.amount, type: 'DEP_CC' },
            ],
            coins: [],
          },
        },
      ];
    },
  },

  EnterDeposit: {
    needs: (command) => ({ wallets: [walletIdOf(command.ownerId, 'CON')], coins: noCoins }),
    decide(command, state) {
      requireCashCurrency(command.payment.currency);
      checkAmount(command.payment.amount, command.payment.currency, amountLimits.funding, 'payment');
      const wallet = openWallet(state, walletIdOf(command.ownerId, 'CON'));
      const coins = coinsForCash(command.payment.amount, command.payment.currency, command.rateMicros);
      if (coins <= 0)
        refuse('amount_not_positive', `${command.payment.amount} ${command.payment.currency} buys no whole coin`);
      return [
        {
          type: 'DepositEntered',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            method: command.method,
            payment: command.payment,
            amount: coins,
            rateMicros: command.rateMicros,
            reference: command.reference,
            expiresAt: command.expiresAt,
            ...(command.quoteId === undefined ? {} : { quoteId: command.quoteId }),
            postings: [],
            coins: [],
          },
        },
      ];
    },
  },

  ClearDeposit: {
    needs: (_command, tx) => ({ wallets: tx?.payeeWalletId ? [tx.payeeWalletId] : [], coins: noCoins }),
    decide(command, state, { newSerial }) {
      const tx = pendingDeposit(command.txId, state.tx);
      const wallet = openWallet(state, tx.walletId);
      return [
        {
          type: 'DepositCleared',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            amount: tx.amount,
            clearedBy: command.clearedBy,
            payment: tx.payment,
            postings: depositLegs(tx.method, tx.payment, wallet.walletId, tx.amount),
            coins: [mintCoin(tx.amount, wallet.walletId, newSerial)],
          },
        },
      ];
    },
  },

  RejectDeposit: {
    needs: () => ({ wallets: [], coins: noCoins }),
    decide(command, state) {
      pendingDeposit(command.txId, state.tx);
      return [
        {
          type: 'DepositRejected',
          data: { txId: command.txId, reason: command.reason, rejectedBy: command.rejectedBy, postings: [], coins: [] },
        },
      ];
    },
  },

  ExpireDeposit: {
    needs: () => ({ wallets: [], coins: noCoins }),
    decide(command, state, { now }) {
      const tx = pendingDeposit(command.txId, state.tx);
      if (tx.expiresAt === null || now.getTime() < Date.parse(tx.expiresAt)) {
        refuse(
          'transaction_state_invalid',
          `deposit ${command.txId} does not expire before ${tx.expiresAt ?? 'never'}`,
        );
      }
      return [{ type: 'DepositExpired', data: { txId: command.txId, postings: [], coins: [] } }];
    },
  },

  CreditBitcoinPayment: {
    needs: (command) => ({ wallets: [walletIdOf(command.ownerId, 'CON')], coins: noCoins }),
    decide(command, state, { newSerial }) {
      if (!Number.isSafeInteger(command.sats) || command.sats <= 0)
        refuse('amount_not_positive', `${command.sats} sats is nothing to credit`);
      checkAmount(command.coins, 'CON', amountLimits.unlimited);
      const wallet = openWallet(state, walletIdOf(command.ownerId, 'CON'));
      const { payment } = command;
      if (payment !== undefined) {
        requireCashCurrency(payment.currency);
        checkAmount(payment.amount, payment.currency, amountLimits.unlimited, 'payment');
      }
      return [
        {
          type: 'BitcoinPaymentCredited',
          data: {
            txId: command.txId,
            walletId: wallet.walletId,
            ownerId: command.ownerId,
            depositTxId: command.depositTxId,
            sats: command.sats,
            amount: command.coins,
            creditedBy: command.creditedBy,
            ...(payment === undefined ? {} : { payment }),
            postings:
              payment === undefined
                ? [
                    { account: wallet.walletId, currency: 'CON', amount: command.coins, type: 'DEP_CON' },
                    {
                      account: platformAccount('bitcoin-funding', 'CON'),
                      currency: 'CON',
                      amount: -command.coins,
                      type: 'DEP_CON',
                    },
                  ]
                : depositLegs('bitcoin', payment, wallet.walletId, command.coins),
            coins: [mintCoin(command.coins, wallet.walletId, newSerial)],
          },
        },
      ];
    },
  },
};

/**
 * A deposit's cash buying its coins: the cash enters through the deposit
 * method's funding account of its currency and meets the coins in the
 * exchange, so each currency balances on its own (as a purchase does). A
 * bitcoin payment enters as the dollars its satoshis were quoted at.
 */
function depositLegs(method: DepositMethod, payment: Cash, walletId: AccountId, coins: number): Posting[] {
  return conversionLegs(
    { account: platformAccount(fundingAccountOf(method), payment.currency), ...payment },
    { account: walletId, amount: coins, currency: 'CON' },
    'DEP_CON',
  );
}

function pendingDeposit(txId: string, record: TransactionRecord | null) {
  const tx = requireTransaction(record, txId);
  if (
    tx.txClass !== 'DepositEntered' ||
    tx.state !== 'pending' ||
    tx.payeeWalletId === null ||
    tx.paymentMethodType === null ||
    tx.payment === null
  ) {
    return refuse('transaction_state_invalid', `${txId} is not a pending deposit (${tx.txClass}, ${tx.state})`);
  }
  return {
    walletId: tx.payeeWalletId,
    amount: tx.amount,
    method: tx.paymentMethodType as DepositMethod,
    expiresAt: tx.expiresAt,
    payment: tx.payment,
  };
}
