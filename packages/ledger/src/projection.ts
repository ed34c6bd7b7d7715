import type { AccountId } from './accounts.ts';
import { balanceChange, type BalanceChange } from './balance.ts';
import type { CoinStep } from './coins.ts';
import type { TransactionEvent } from './events.ts';
import type { Currency } from './money.ts';
import type { TransactionRecord } from './transaction.ts';
import type { LedgerType } from './words.ts';

/**
 * What a stored event does to the read models, as plain data. The inline
 * projector, the rebuild and the model tests all apply these, so there is
 * one reading of every event.
 */

/** The balance change each wallet named by the event undergoes. */
export function balanceChangesOf(event: TransactionEvent): [AccountId, BalanceChange][] {
  switch (event.type) {
    case 'CoinsPurchased':
    case 'CardDepositMade':
    case 'DepositCleared':
    case 'BitcoinPaymentCredited':
      return [[event.data.walletId, balanceChange.credited(event.data.amount)]];
    case 'DepositEntered':
    case 'DepositRejected':
    case 'DepositExpired':
      return [];
    case 'FundsTransferred': {
      const { data } = event;
      const received = data.hold ? balanceChange.creditedOnHold(data.amount) : balanceChange.credited(data.amount);
      if (data.fundedBy) return [[data.toWalletId, received]];
      // Paid from coins: the CON wallet gave the coins the price cost.
      const paid = data.paidFromCoins ? data.paidFromCoins.coins : data.amount + data.fee;
      return [
        [data.fromWalletId, balanceChange.debited(paid)],
        [data.toWalletId, received],
      ];
    }
    case 'HoldReleased':
      return [[event.data.walletId, balanceChange.holdReleased(event.data.amount)]];
    case 'WithdrawalRequested':
      return [[event.data.walletId, balanceChange.reserved(event.data.amount)]];
    case 'WithdrawalProcessed':
      return [[event.data.walletId, balanceChange.reservationPaidOut(event.data.amount)]];
    case 'WithdrawalFailed':
      return [[event.data.walletId, balanceChange.reservationReturned(event.data.amount)]];
    case 'SaleReturned': {
      const { data } = event;
      const merchant: [AccountId, BalanceChange] = [data.merchantWalletId, balanceChange.debited(data.amount)];
      // A sale paid from coins gets its coins back: the buyer's CON wallet is credited what the return gives in coins.
      const back = data.coinsBack ?? data.amount;
      return data.buyerWalletId ? [merchant, [data.buyerWalletId, balanceChange.credited(back)]] : [merchant];
    }
    case 'CardRefundConfirmed':
      return [];
    case 'CardRefundFailed':
      return [[event.data.merchantWalletId, balanceChange.creditedSpendable(event.data.amount)]];
    case 'MerchantBatchSettled':
    case 'PlatformFeeCharged':
      return [[event.data.walletId, balanceChange.debited(event.data.amount)]];
    case 'BalanceCorrected': {
      const { amount, walletId } = event.data;
      return [[walletId, amount >= 0 ? balanceChange.credited(amount) : balanceChange.debited(-amount)]];
    }
  }
}

/**
 * What a return adds to its sale: the amount given back, and whether it is
 * a return made (which dates the sale's last return). The sale's row keeps
 * the sum of its standing returns, which the store's commit refuses to take
 * past the sale's amount. A card refund the processor refused takes its
 * return's amount off again: that money went back to the merchant, so the
 * merchant may return it once more. `record` is the transaction after the
 * event (a failed return's names its sale).
 */
export function saleReturnOf(
  event: TransactionEvent,
  record: Pick<TransactionRecord, 'parentTxId'>,
): { saleTxId: string; amount: number; made: boolean } | null {
  if (event.type === 'SaleReturned') return { saleTxId: event.data.saleTxId, amount: event.data.amount, made: true };
  if (event.type === 'CardRefundFailed' && record.parentTxId !== null)
    return { saleTxId: record.parentTxId, amount: -event.data.amount, made: false };
  return null;
}

/**
 * The spec's Ledger entry: one per posting, amount unsigned with D (debit)
 * or C (credit). Its id and event position are the stored event's position
 * (and the entry's index), which the store assigns as it writes.
 */
export type LedgerEntryLine = {
  txId: string;
  accountId: AccountId;
  entryDate: Date;
  type: LedgerType;
  amount: number;
  currency: Currency;
  debitCredit: 'D' | 'C';
};

export function ledgerEntriesOf(event: TransactionEvent, at: Date): LedgerEntryLine[] {
  return event.data.postings.map((posting) => ({
    txId: event.data.txId,
    accountId: posting.account,
    entryDate: at,
    type: posting.type,
    amount: Math.abs(posting.amount),
    currency: posting.currency,
    debitCredit: posting.amount < 0 ? 'D' : 'C',
  }));
}

export type CoinStatus = 'held' | 'reserved' | 'split' | 'burned';
export type CoinRow = {
  serial: string;
  holder: AccountId;
  value: number;
  status: CoinStatus;
  parentSerial: string | null;
  mintedTxId: string;
  /** When a coin bought by card can be withdrawn as cash; its split children are created with the same. */
  maturesAt: string | null;
};
export type CoinUpdate = { serial: string; holder: AccountId; status: CoinStatus };

/**
 * The coin rows an event creates and the ones it changes (each serial once,
 * in its final state), from its coin steps.
 */
export function coinChangesOf(txId: string, steps: readonly CoinStep[]): { created: CoinRow[]; updated: CoinUpdate[] } {
  const created = new Map<string, CoinRow>();
  const updated = new Map<string, CoinUpdate>();
  const change = (serial: string, holder: AccountId, status: CoinStatus) => {
    const fresh = created.get(serial);
    if (fresh) created.set(serial, { ...fresh, holder, status });
    else updated.set(serial, { serial, holder, status });
  };
  for (const step of steps) {
    switch (step.action) {
      case 'mint':
        created.set(step.serial, {
          serial: step.serial,
          holder: step.to,
          value: step.value,
          status: 'held',
          parentSerial: null,
          mintedTxId: txId,
          maturesAt: step.maturesAt ?? null,
        });
        break;
      case 'split':
        change(step.serial, step.holder, 'split');
        for (const child of step.into) {
          created.set(child.serial, {
            serial: child.serial,
            holder: step.holder,
            value: child.value,
            status: 'held',
            parentSerial: step.serial,
            mintedTxId: txId,
            maturesAt: child.maturesAt ?? null,
          });
        }
        break;
      case 'move':
        change(step.serial, step.to, 'held');
        break;
      case 'reserve':
        change(step.serial, step.holder, 'reserved');
        break;
      case 'release':
        change(step.serial, step.holder, 'held');
        break;
      case 'burn':
        change(step.serial, step.from, 'burned');
        break;
    }
  }
  return { created: [...created.values()], updated: [...updated.values()] };
}

/** The audit trail: one line per coin step, and one per child a split creates (ids assigned by the store, as for entries). */
export type CoinAuditAction = 'MINT' | 'SPLIT' | 'SPLIT_INTO' | 'MOVE' | 'RESERVE' | 'RELEASE' | 'BURN';
export type CoinAuditLine = {
  txId: string;
  serial: string;
  action: CoinAuditAction;
  value: number;
  fromAccount: AccountId | null;
  toAccount: AccountId | null;
  parentSerial: string | null;
  entryDate: Date;
};

export function coinAuditOf(event: TransactionEvent, at: Date): CoinAuditLine[] {
  const entries: Omit<CoinAuditLine, 'txId' | 'entryDate'>[] = [];
  for (const step of event.data.coins) {
    switch (step.action) {
      case 'mint':
        entries.push({
          serial: step.serial,
          action: 'MINT',
          value: step.value,
          fromAccount: null,
          toAccount: step.to,
          parentSerial: null,
        });
        break;
      case 'split':
        entries.push({
          serial: step.serial,
          action: 'SPLIT',
          value: step.value,
          fromAccount: step.holder,
          toAccount: null,
          parentSerial: null,
        });
        for (const child of step.into) {
          entries.push({
            serial: child.serial,
            action: 'SPLIT_INTO',
            value: child.value,
            fromAccount: null,
            toAccount: step.holder,
            parentSerial: step.serial,
          });
        }
        break;
      case 'move':
        entries.push({
          serial: step.serial,
          action: 'MOVE',
          value: step.value,
          fromAccount: step.from,
          toAccount: step.to,
          parentSerial: null,
        });
        break;
      case 'reserve':
      case 'release':
        entries.push({
          serial: step.serial,
          action: step.action === 'reserve' ? 'RESERVE' : 'RELEASE',
          value: step.value,
          fromAccount: step.holder,
          toAccount: step.holder,
          parentSerial: null,
        });
        break;
      case 'burn':
        entries.push({
          serial: step.serial,
          action: 'BURN',
          value: step.value,
          fromAccount: step.from,
          toAccount: null,
          parentSerial: null,
        });
        break;
    }
  }
  return entries.map((entry) => ({ ...entry, txId: event.data.txId, entryDate: at }));
}

/** The spec's `from_serial`: serial, the account it came from, currency and value, colon-separated. */
export function fromSerialText(entry: Pick<CoinAuditLine, 'serial' | 'fromAccount' | 'value'>): string {
  return [entry.serial, entry.fromAccount ?? '', 'CON', String(entry.value)].join(':');
}
