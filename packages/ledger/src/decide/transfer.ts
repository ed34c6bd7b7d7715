import { platformAccount, walletIdOf } from '../accounts.ts';
import { amountLimits, cashForCoins, cashPriceOfCoins, checkAmount } from '../amounts.ts';
import { mintCoin, spendCoins, type CoinStep, type NewSerial } from '../coins.ts';
import { refuse } from '../errors.ts';
import type { CardFunding, CoinPayment, Posting, TransferKind } from '../events.ts';
import { intoExchange } from '../exchange.ts';
import type { Currency } from '../money.ts';
import type { LedgerType } from '../words.ts';
import type { CommandRules } from './rule.ts';
import { coinsToSpend, noCoins } from './rule.ts';
import {
  cardCoinsMatureAt,
  openWallet,
  requireAvailable,
  requireCashCurrency,
  requireTransaction,
  type LedgerState,
} from './state.ts';

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
    needs: (command) =>
      command.fundedBy
        ? { wallets: [walletIdOf(command.toOwnerId, command.currency)], coins: noCoins }
        : command.paidFromCoins
          ? {
              wallets: [walletIdOf(command.fromOwnerId, 'CON'), walletIdOf(command.toOwnerId, command.currency)],
              coins: coinsToSpend(command.fromOwnerId, 'CON', command.paidFromCoins.coins),
            }
          : {
              wallets: [
                walletIdOf(command.fromOwnerId, command.currency),
                walletIdOf(command.toOwnerId, command.currency),
              ],
              coins: coinsToSpend(command.fromOwnerId, command.currency, command.amount + command.fee),
            },
    decide(command, state, context) {
      const { now, newSerial, holdHours } = context;
      const { currency, amount, fee } = command;
      checkAmount(amount, currency, amountLimits.transfer);
      if (fee !== 0) checkAmount(fee, currency, amountLimits.unlimited, 'fee');
      if (command.fromOwnerId === command.toOwnerId) refuse('send_to_self', `${command.fromOwnerId} sent to themself`);
      if (command.fundedBy && command.paidFromCoins)
        refuse('payment_method_wrong_use', 'a payment is charged to a card or paid from coins, not both');
      const to = openWallet(state, walletIdOf(command.toOwnerId, currency));
      const fees = platformAccount('fees', currency);
      const types = entryTypes[command.kind];
      const source = command.fundedBy
        ? cardSource(command.fundedBy, amount + fee, currency, cardCoinsMatureAt(context), types.sent)
        : command.paidFromCoins
          ? coinSource(state, command.fromOwnerId, command.paidFromCoins, { amount, fee, currency }, types.sent)
          : walletSource(state, command.fromOwnerId, currency, amount + fee);

      const postings: Posting[] = [
        ...source.inflow,
        { account: source.account, currency, amount: -amount, type: types.sent },
        { account: to.walletId, currency, amount, type: types.received },
      ];
      if (fee > 0) {
        postings.push(
          { account: source.account, currency, amount: -fee, type: 'FEE_PLATFORM' },
          { account: fees, currency, amount: fee, type: 'FEE_PLATFORM' },
        );
      }
      // Coins move for a payment in coins, and are retired for a cash price paid from them.
      const coins =
        currency === 'CON' || command.paidFromCoins
          ? source.coins(
              [
                { amount, to: to.walletId },
                { amount: fee, to: fees },
              ],
              newSerial,
            )
          : [];
      const hold =
        isHeld(command.kind) && holdHours > 0
          ? { amount, releaseAt: new Date(now.getTime() + holdHours * HOUR).toISOString() }
          : null;
      return [
        {
          type: 'FundsTransferred',
          data: {
            txId: command.txId,
            kind: command.kind,
            fromWalletId: walletIdOf(command.fromOwnerId, command.paidFromCoins ? 'CON' : currency),
            fromOwnerId: command.fromOwnerId,
            toWalletId: to.walletId,
            toOwnerId: command.toOwnerId,
            amount,
            fee,
            currency,
            hold,
            memo: command.memo,
            postings,
            coins,
            ...(command.fundedBy ? { fundedBy: command.fundedBy } : {}),
            ...(command.paidFromCoins ? { paidFromCoins: command.paidFromCoins } : {}),
          },
        },
      ];
    },
  },

  ReleaseHold: {
    needs: (_command, tx) => ({ wallets: tx?.payeeWalletId ? [tx.payeeWalletId] : [], coins: noCoins }),
    decide(command, state, { now }) {
      const tx = requireTransaction(state.tx, command.txId);
      if (
        tx.holdAmount === null ||
        tx.holdReleaseAt === null ||
        tx.payeeWalletId === null ||
        tx.holdReleasedAt !== null
      ) {
        return refuse('transaction_state_invalid', `${command.txId} has no hold to release`);
      }
      if (now.getTime() < Date.parse(tx.holdReleaseAt))
        refuse('transaction_state_invalid', `the hold of ${command.txId} ends at ${tx.holdReleaseAt}`);
      // The wallet may have been closed since: releasing a hold only makes money withdrawable, so it still may.
      if (!state.wallets.has(tx.payeeWalletId)) refuse('wallet_not_found', `${tx.payeeWalletId} does not exist`);
      return [
        {
          type: 'HoldReleased',
          data: { txId: command.txId, walletId: tx.payeeWalletId, amount: tx.holdAmount, postings: [], coins: [] },
        },
      ];
    },
  },
};

type Payout = { amount: number; to: string };

/**
 * Where a transfer's money comes from: the account its postings debit in
 * the payment's currency, the postings that bring the money there from
 * another currency (a conversion's first leg; none for a payment in the
 * currency paid with), and how its coins reach the payees.
 */
type Source = {
  account: string;
  inflow: Posting[];
  coins: (payouts: Payout[], newSerial: NewSerial) => CoinStep[];
};

/** The payer's wallet, which must have the money available; its coins move. */
function walletSource(state: LedgerState, ownerId: string, currency: Currency, total: number): Source {
  const from = openWallet(state, walletIdOf(ownerId, currency));
  requireAvailable(from, total);
  return {
    account: from.walletId,
    inflow: [],
    coins: (payouts, newSerial) => spendCoins(state.coins, from.walletId, payouts, newSerial),
  };
}

/**
 * A USD or CAD price paid from the payer's coins: the CON wallet pays the
 * coins into the CON exchange account, where they are retired (as a
 * withdrawal's are), and the exchange account of the price's currency pays
 * the price. The coins must sell for at least the price at the rate.
 */
function coinSource(
  state: LedgerState,
  ownerId: string,
  paid: CoinPayment,
  price: { amount: number; fee: number; currency: Currency },
  type: LedgerType,
): Source {
  requireCashCurrency(price.currency);
  // Fees are priced in coins before conversion; none are charged on a converted price today.
  if (price.fee !== 0) refuse('invalid_amount', 'a price paid from coins carries no fee');
  checkAmount(paid.coins, 'CON', amountLimits.unlimited, 'coins');
  if (cashForCoins(paid.coins, price.currency, paid.rateMicros) < price.amount)
    refuse('invalid_amount', `${paid.coins} CON does not pay ${price.amount} ${price.currency} at ${paid.rateMicros}`);
  const from = openWallet(state, walletIdOf(ownerId, 'CON'));
  requireAvailable(from, paid.coins);
  return {
    account: platformAccount('exchange', price.currency),
    inflow: intoExchange({ account: from.walletId, amount: paid.coins, currency: 'CON' }, type),
    coins: (_payouts, newSerial) =>
      spendCoins(state.coins, from.walletId, [{ amount: paid.coins, burn: true }], newSerial),
  };
}

/**
 * A card charge, booked against the card-funding account as a card deposit
 * is. The charge must be the payment itself in USD or CAD, or cover a CON
 * payment at its rate; coins are minted to each payee, as a purchase mints
 * them, and like those they mature before they can be withdrawn as cash
 * (`maturesAt`). IMP cannot be bought with a card.
 */
function cardSource(
  funding: CardFunding,
  total: number,
  currency: Currency,
  maturesAt: string | undefined,
  type: LedgerType,
): Source {
  const { charge } = funding;
  requireCashCurrency(charge.currency);
  checkAmount(charge.amount, charge.currency, amountLimits.unlimited, 'charge');
  if (currency === 'CON') {
    if (funding.rateMicros === null) refuse('invalid_amount', 'a card-funded CON payment names no rate');
    if (charge.amount < cashPriceOfCoins(total, charge.currency, funding.rateMicros)) {
      refuse(
        'invalid_amount',
        `${charge.amount} ${charge.currency} does not pay for ${total} CON at ${funding.rateMicros}`,
      );
    }
  } else {
    if (charge.currency !== currency)
      refuse('currency_mismatch', `a ${currency} payment cannot be charged in ${charge.currency}`);
    if (charge.amount !== total) refuse('invalid_amount', `a charge of ${charge.amount} does not pay ${total}`);
  }
  // Coins bought with the charge go through the exchange: the card's currency and the coins balance apart.
  const converted = currency !== charge.currency;
  return {
    account: platformAccount(converted ? 'exchange' : 'card-funding', currency),
    inflow: converted
      ? intoExchange({ account: platformAccount('card-funding', charge.currency), ...charge }, type)
      : [],
    coins: (payouts, newSerial) =>
      payouts
        .filter((payout) => payout.amount > 0)
        .map((payout) => mintCoin(payout.amount, payout.to, newSerial, maturesAt)),
  };
}
