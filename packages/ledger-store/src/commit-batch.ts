import { applyBalanceChange, type AccountId } from '@peeks/ledger';
import { transactionRow, type EventProjection } from './inline-projection.ts';
import type { CommittedWallet, Decided, ReadState } from './types.ts';

type CoinCreated = EventProjection['coinsCreated'][number] & { tx_ids: readonly string[] };
type CoinUpdated = EventProjection['coinsUpdated'][number] & { tx_ids: readonly string[] };

/**
 * The argument of `ledger_commit` (sql/ledger-commit.sql): the batch's
 * events, in the order the batch decided them, and every read-model row the
 * batch writes, once, in the state the batch leaves it in. Balances start
 * from the wallets as read, which the commit checks are unchanged, so a
 * wallet the batch changes must be one of `read.versions`.
 */
export function commitBatch(read: Pick<ReadState, 'wallets' | 'versions'>, decisions: readonly Decided[]) {
  const events: object[] = [];
  const entries: object[] = [];
  const wallets = new Map<AccountId, CommittedWallet>();
  const coinsCreated = new Map<string, CoinCreated>();
  const coinsUpdated = new Map<string, CoinUpdated>();
  const salesReturned = new Map<string, { sale_tx_id: string; amount: number; return_date: string | null }>();

  for (const { prepared, projections } of decisions) {
    const createdAt = prepared.createdAt.toISOString();
    for (const [index, event] of prepared.chained.entries()) {
      const projection = projections[index];
      if (!projection) throw new Error(`event ${event.version} of ${prepared.streamId} has no projection`);
      events.push({
        stream_id: prepared.streamId,
        version: event.version,
        type: event.type,
        data: event.data,
        metadata: prepared.metadata,
        created_at: createdAt,
        prev_hash: event.prevHash,
        hash: event.hash,
      });
      for (const [n, entry] of projection.entries.entries()) entries.push({ event: events.length, n, ...entry });
      for (const { wallet_id, ...change } of projection.balances) {
        const wallet = wallets.get(wallet_id) ?? walletAsRead(read, wallet_id);
        wallets.set(wallet_id, { wallet_id, ...applyBalanceChange(wallet, change), version: wallet.version + 1 });
      }
      if (projection.saleReturn) {
        const { sale_tx_id, amount, return_date } = projection.saleReturn;
        const before = salesReturned.get(sale_tx_id);
        salesReturned.set(sale_tx_id, {
          sale_tx_id,
          amount: (before?.amount ?? 0) + amount,
          return_date: return_date ?? before?.return_date ?? null,
        });
      }
      const txId = projection.transaction.tx_id;
      for (const coin of projection.coinsCreated)
        coinsCreated.set(coin.serial, { ...coin, tx_ids: [coin.minted_tx_id] });
      for (const { serial, holder, status } of projection.coinsUpdated) {
        const fresh = coinsCreated.get(serial);
        if (fresh) coinsCreated.set(serial, { ...fresh, holder, status, tx_ids: including(fresh.tx_ids, txId) });
        else
          coinsUpdated.set(serial, {
            serial,
            holder,
            status,
            tx_ids: including(coinsUpdated.get(serial)?.tx_ids ?? [], txId),
          });
      }
    }
  }

  const transactions = decisions.map(({ prepared, record }) => ({
    isNew: prepared.head.version === 0,
    row: transactionRow(record),
  }));
  return {
    events,
    wallets: [...wallets.values()],
    transactions_new: transactions.filter(({ isNew }) => isNew).map(({ row }) => row),
    transactions_changed: transactions.filter(({ isNew }) => !isNew).map(({ row }) => row),
    entries,
    coins_created: [...coinsCreated.values()],
    coins_updated: [...coinsUpdated.values()],
    sales_returned: [...salesReturned.values()],
  };
}

function walletAsRead(read: Pick<ReadState, 'wallets' | 'versions'>, walletId: AccountId): CommittedWallet {
  const wallet = read.wallets.get(walletId);
  const version = read.versions.get(walletId);
  if (!wallet || version === undefined) throw new Error(`the batch changes ${walletId}, which it did not read`);
  return {
    wallet_id: walletId,
    total: wallet.total,
    available: wallet.available,
    withdrawable: wallet.withdrawable,
    reserved: wallet.reserved,
    version,
  };
}

/** A coin's transactions, each once, in the order they first named it. */
const including = (txIds: readonly string[], txId: string) => (txIds.includes(txId) ? txIds : [...txIds, txId]);
