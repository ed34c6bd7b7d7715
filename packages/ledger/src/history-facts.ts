import { walletParts, type AccountId } from './accounts.ts';
import { COINS_PER_UNIT } from './amounts.ts';
import type { Cash, DepositMethod, TransactionEvent } from './events.ts';
import type { Currency } from './money.ts';
import type { TransactionRecord } from './transaction.ts';

/**
 * What a history row says beyond the transaction's nominal amount: how the
 * viewer's wallet moved, what paid or was paid outside it, who was on the
 * other side, and any conversion. Derived from the ledger's own postings and
 * the transaction's opening event, so the rows add up to the balance.
 */

/** A posting as `ledger_entries` keeps it: an unsigned amount, C adding to the account and D taking from it. */
export type StoredPosting = { accountId: AccountId; currency: string; amount: number; debitCredit: string };

/**
 * How much `ownerId`'s `currency` wallet moved by a transaction's postings,
 * signed: credits less debits. Zero when the money never touched the
 * wallet (a payment charged to a card, a deposit still pending).
 */
export function walletChangeOf(postings: readonly StoredPosting[], ownerId: string, currency: Currency): number {
  let change = 0;
  for (const posting of postings) {
    const wallet = walletParts(posting.accountId);
    if (wallet?.ownerId !== ownerId || posting.currency !== currency) continue;
    change += posting.debitCredit === 'C' ? posting.amount : -posting.amount;
  }
  return change;
}

/** Money a card, a bank or a deposit method paid in, or was paid out, outside every wallet. */
export type OutsideMoney = Cash & {
  /** The stored payment method (its id as the ledger names it), or how a deposit was paid. */
  source: { paymentMethodId: string } | { depositMethod: DepositMethod };
};

/**
 * What paid for (or received) a transaction outside the wallet, as the
 * viewer may see it: their own card or account only, never the other
 * party's (a shop does not see its buyer's card).
 */
export function outsideMoneyOf(opening: TransactionEvent, viewerOwnerId: string): OutsideMoney | null {
  switch (opening.type) {
    case 'CoinsPurchased':
      return opening.data.ownerId === viewerOwnerId
        ? { ...opening.data.charge, source: { paymentMethodId: opening.data.paymentMethod.id } }
        : null;
    case 'CardDepositMade':
      return opening.data.ownerId === viewerOwnerId
        ? {
            amount: opening.data.amount,
            currency: opening.data.currency,
            source: { paymentMethodId: opening.data.paymentMethod.id },
          }
        : null;
    case 'DepositEntered':
      return opening.data.ownerId === viewerOwnerId
        ? { ...opening.data.payment, source: { depositMethod: opening.data.method } }
        : null;
    case 'BitcoinPaymentCredited':
      return opening.data.ownerId === viewerOwnerId && opening.data.payment
        ? { ...opening.data.payment, source: { depositMethod: 'bitcoin' } }
        : null;
    case 'FundsTransferred': {
      const { fundedBy, fromOwnerId } = opening.data;
      return fundedBy && fromOwnerId === viewerOwnerId
        ? { ...fundedBy.charge, source: { paymentMethodId: fundedBy.paymentMethod.id } }
        : null;
    }
    case 'SaleReturned': {
      const { cardRefund, buyerOwnerId } = opening.data;
      return cardRefund && buyerOwnerId === viewerOwnerId
        ? {
            amount: cardRefund.amount,
            currency: cardRefund.currency,
            source: { paymentMethodId: cardRefund.paymentMethod.id },
          }
        : null;
    }
    case 'WithdrawalRequested':
      return opening.data.ownerId === viewerOwnerId
        ? {
            amount: opening.data.amount,
            currency: opening.data.currency,
            source: { paymentMethodId: opening.data.destination.paymentMethodId },
          }
        : null;
    default:
      return null;
  }
}

/** A conversion as the transaction recorded it: cash in, coins out, at a rate. */
export type Conversion = {
  /** The quote the person confirmed; null where the transaction was priced without one. */
  quoteId: string | null;
  from: Currency;
  to: Currency;
  amountIn: number;
  amountOut: number;
  /** Units of `to` per unit of `from`: 20 coins per unit at the rate. */
  rate: number;
  fee: number;
};

const RATE_SCALE = 1_000_000;
const coinsPerUnitAt = (rateMicros: number) => (COINS_PER_UNIT * rateMicros) / RATE_SCALE;
const quoteIdOf = (data: object) => ('quoteId' in data && typeof data.quoteId === 'string' ? data.quoteId : null);

/** The conversion a transaction made, where cash became coins or coins paid a cash price; null for every other transaction. */
export function conversionOf(opening: TransactionEvent): Conversion | null {
  switch (opening.type) {
    case 'CoinsPurchased': {
      const { charge, amount, rateMicros } = opening.data;
      return conversion(opening.data, charge, amount, rateMicros);
    }
    case 'DepositEntered': {
      const { payment, amount, rateMicros } = opening.data;
      return conversion(opening.data, payment, amount, rateMicros);
    }
    case 'BitcoinPaymentCredited': {
      const { payment, amount } = opening.data;
      if (!payment) return null;
      // Credited at the deposit's quote: the coins its satoshis' dollars bought, whatever the rounding.
      return { ...conversion(opening.data, payment, amount, 0), rate: amount / payment.amount };
    }
    case 'FundsTransferred': {
      const { fundedBy, paidFromCoins, currency, amount, fee } = opening.data;
      if (paidFromCoins) {
        // Coins in, the price out: the rate is the price's currency per coin.
        return {
          quoteId: paidFromCoins.quoteId,
          from: 'CON',
          to: currency,
          amountIn: paidFromCoins.coins,
          amountOut: amount,
          rate: 1 / coinsPerUnitAt(paidFromCoins.rateMicros),
          fee,
        };
      }
      if (!fundedBy || fundedBy.rateMicros === null || fundedBy.charge.currency === currency) return null;
      return conversion(opening.data, fundedBy.charge, amount + fee, fundedBy.rateMicros);
    }
    case 'SaleReturned': {
      const { coinsBack, amount, currency } = opening.data;
      if (coinsBack === undefined) return null;
      // The price's share back as coins, at the rate the sale was paid at.
      return {
        quoteId: null,
        from: currency,
        to: 'CON',
        amountIn: amount,
        amountOut: coinsBack,
        rate: coinsBack / amount,
        fee: 0,
      };
    }
    default:
      return null;
  }
}

function conversion(data: object, paid: Cash, coins: number, rateMicros: number): Conversion {
  return {
    quoteId: quoteIdOf(data),
    from: paid.currency,
    to: 'CON',
    amountIn: paid.amount,
    amountOut: coins,
    rate: coinsPerUnitAt(rateMicros),
    fee: 0,
  };
}

/**
 * The owner on the other side of a transaction from the viewer: the payee
 * for what they paid, the payer for what they received. Null for money
 * that came from or went to no one else (a purchase, a deposit, a
 * withdrawal, a fee, a correction, a settlement).
 */
export function counterpartyOwnerOf(record: TransactionRecord, viewerOwnerId: string): string | null {
  if (record.type !== 'transfer' && record.type !== 'sale' && record.type !== 'return') return null;
  const other = record.payerOwnerId === viewerOwnerId ? record.payeeOwnerId : record.payerOwnerId;
  return other === viewerOwnerId ? null : other;
}
