import { platformAccount, walletParts } from '../accounts.ts';
import { amountLimits, checkAmount } from '../amounts.ts';
import { cardRefundedBy, cardRefundOf } from '../card-refunds.ts';
import { mintCoin, spendCoins, type CoinStep } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { Posting } from '../events.ts';
import { intoExchange, outOfExchange } from '../exchange.ts';
import type { CommandRules } from './rule.ts';
import { coinsToSpend, noCoins } from './rule.ts';
import { openWallet, requireAvailable, requireCashCurrency, requireTransaction, type SaleState } from './state.ts';

/** What is left of a sale to give back: a return refused by the card's processor gave nothing back. */
export const leftToReturn = (sale: Pick<SaleState, 'record' | 'returned'>) => sale.record.amount - sale.returned;

/**
 * Returns: a merchant gives back part or all of a sale. The money leaves
 * the merchant's wallet at once; it goes to the buyer's wallet, or, for a
 * sale charged to a card, to the card-funding account, and the return is
 * pending until the processor confirms the card's refund (its share of the
 * charge, card-refunds.ts), or refuses it for good, which gives the money
 * back to the merchant.
 */
export const returnRules: Pick<CommandRules, 'ReturnSale' | 'ConfirmCardRefund' | 'FailCardRefund'> = {
  ReturnSale: {
    // `sale` is the sale's record (the store reads it for a return): its wallets are the ones to lock.
    needs: (command, sale) => {
      if (!sale?.payeeWalletId) return { wallets: [], coins: noCoins };
      const wallets = [sale.payeeWalletId];
      if (command.cardCharge === null && sale.payerWalletId) wallets.push(sale.payerWalletId);
      return { wallets, coins: coinsToSpend(command.merchantOwnerId, sale.currency, command.amount) };
    },
    decide(command, state, { newSerial }) {
      const sale = state.sale ?? refuse('transaction_not_found', `sale ${command.saleTxId} does not exist`);
      const record = sale.record;
      // Another merchant's sale, or not a sale at all, is not found: it is not theirs to return.
      if (record.type !== 'sale' || record.merchantId !== command.merchantOwnerId || record.payeeWalletId === null)
        refuse('transaction_not_found', `${command.saleTxId} is not a sale of ${command.merchantOwnerId}`);
      if (record.state !== 'completed')
        refuse('sale_not_returnable', `${command.saleTxId} is ${record.state}, not completed`);
      const { amount } = command;
      const currency = record.currency;
      checkAmount(amount, currency, amountLimits.unlimited);
      if (amount > leftToReturn(sale))
        refuse('return_exceeds_sale', `${amount} is more than the ${leftToReturn(sale)} left of ${command.saleTxId}`);
      if (command.reason.trim() === '') refuse('required_field', 'a return needs a reason');

      // A price paid from coins goes back as coins: the return's share of what the sale took, at the sale's own rate.
      const paidFromCoins = record.payerWalletId !== null && walletParts(record.payerWalletId)?.currency !== currency;
      if (paidFromCoins && !command.coinsPaid)
        refuse('payment_method_wrong_use', `${command.saleTxId} was paid from coins; the return needs what it took`);
      const paidByCard = record.paymentMethodType === 'CC';
      if (paidByCard !== (command.cardCharge !== null))
        refuse(
          'payment_method_wrong_use',
          paidByCard ? `${command.saleTxId} was charged to a card` : `${command.saleTxId} was not charged to a card`,
        );
      if (command.cardCharge) {
        requireCashCurrency(command.cardCharge.currency);
        checkAmount(command.cardCharge.amount, command.cardCharge.currency, amountLimits.unlimited, 'charge');
      }
      // The sale's returns so far are read under the store's per-sale serialization, so no two returns share them.
      const cardRefund = command.cardCharge && {
        amount: cardRefundOf({
          charge: command.cardCharge.amount,
          sale: record.amount,
          returnedBefore: sale.returned,
          refundedBefore: sale.cardRefunded,
          amount,
        }),
        currency: command.cardCharge.currency,
      };

      const merchant = openWallet(state, record.payeeWalletId);
      requireAvailable(merchant, amount);
      const buyer = cardRefund || record.payerWalletId === null ? null : openWallet(state, record.payerWalletId);
      const coinsBack =
        paidFromCoins && command.coinsPaid
          ? // Coins go straight back, never refused: the returns so far got exactly their share.
            cardRefundOf({
              charge: command.coinsPaid,
              sale: record.amount,
              returnedBefore: sale.returned,
              refundedBefore: cardRefundedBy(command.coinsPaid, record.amount, sale.returned),
              amount,
            })
          : null;
      const to = buyer?.walletId ?? platformAccount('card-funding', currency);
      const postings: Posting[] =
        coinsBack !== null && buyer
          ? [
              ...intoExchange({ account: merchant.walletId, amount, currency }, 'RETURN'),
              ...(coinsBack > 0
                ? outOfExchange({ account: buyer.walletId, amount: coinsBack, currency: 'CON' }, 'RETURN')
                : []),
            ]
          : [
              { account: merchant.walletId, currency, amount: -amount, type: 'RETURN' },
              { account: to, currency, amount, type: 'RETURN' },
            ];
      // Coins go back to the buyer; to a card they are retired, as the card-funding account issued them.
      // A price paid from coins retired its coins into the exchange: new ones are minted for the share returned.
      const coins: CoinStep[] =
        coinsBack !== null && buyer
          ? coinsBack > 0
            ? [mintCoin(coinsBack, buyer.walletId, newSerial)]
            : []
          : currency === 'CON'
            ? spendCoins(
                state.coins,
                merchant.walletId,
                [buyer ? { amount, to: buyer.walletId } : { amount, burn: true }],
                newSerial,
              )
            : [];
      return [
        {
          type: 'SaleReturned',
          data: {
            txId: command.txId,
            saleTxId: command.saleTxId,
            merchantOwnerId: command.merchantOwnerId,
            merchantWalletId: merchant.walletId,
            buyerOwnerId: record.payerOwnerId ?? '',
            buyerWalletId: buyer?.walletId ?? null,
            amount,
            currency,
            reason: command.reason.trim(),
            cardRefund:
              cardRefund && record.paymentMethodId !== null
                ? {
                    ...cardRefund,
                    paymentMethod: { id: record.paymentMethodId, type: record.paymentMethodType ?? 'CC' },
                  }
                : null,
            ...(coinsBack !== null ? { coinsBack } : {}),
            postings,
            coins,
          },
        },
      ];
    },
  },

  ConfirmCardRefund: {
    needs: () => ({ wallets: [], coins: noCoins }),
    decide(command, state) {
      const tx = requireTransaction(state.tx, command.txId);
      if (tx.type !== 'return' || tx.state !== 'pending' || tx.paymentMethodId === null)
        refuse('transaction_state_invalid', `${command.txId} has no card refund waiting`);
      return [
        {
          type: 'CardRefundConfirmed',
          data: { txId: command.txId, refundReference: command.refundReference, postings: [], coins: [] },
        },
      ];
    },
  },

  // The return's money comes back from card funding as it went: in coins, new ones minted to the merchant.
  FailCardRefund: {
    needs: (_command, tx) => ({ wallets: tx?.payerWalletId ? [tx.payerWalletId] : [], coins: noCoins }),
    decide(command, state, { newSerial }) {
      const tx = requireTransaction(state.tx, command.txId);
      if (tx.type !== 'return' || tx.state !== 'pending' || tx.paymentMethodId === null || tx.payerWalletId === null)
        refuse('transaction_state_invalid', `${command.txId} has no card refund waiting`);
      const merchant = tx.payerWalletId;
      const { amount, currency } = tx;
      return [
        {
          type: 'CardRefundFailed',
          data: {
            txId: command.txId,
            merchantWalletId: merchant,
            amount,
            reason: command.reason,
            postings: [
              { account: platformAccount('card-funding', currency), currency, amount: -amount, type: 'RETURN' },
              { account: merchant, currency, amount, type: 'RETURN' },
            ],
            coins: currency === 'CON' ? [mintCoin(amount, merchant, newSerial)] : [],
          },
        },
      ];
    },
  },
};
