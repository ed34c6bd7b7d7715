import { errorCodes, type ResolveBitcoinDepositRequest } from '@peeks/contracts';
import { appendToStream, type Database, type EventMetadata } from '@peeks/db';
import type { TransactionRecord } from '@peeks/ledger';
import { executeLedgerCommand, loadTransaction, type LedgerSettings } from '@peeks/ledger-store';
import { address, networks } from 'bitcoinjs-lib';
import type { Kysely, Transaction } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';

/** The stream of an operator's decisions on one bitcoin deposit. */
export const bitcoinDepositStream = (txId: string) => `bitcoin-deposit-${txId}`;

/** The ledger transaction that credits a flagged deposit: one per deposit, so a second credit is a replay. */
export const creditTransactionId = (depositTxId: string) => `${depositTxId}-credit`;

/**
 * Satoshis of a flagged deposit that are the operator's to decide on: what
 * confirmed at its address, less what the ledger already credited (the
 * quoted amount, when the deposit cleared before more arrived).
 */
export function satsToResolve(
  deposit: { confirmed_sats: number; amount_sats: number },
  ledgerState: string | undefined,
): number {
  const credited = ledgerState === 'completed' ? deposit.amount_sats : 0;
  return Math.max(0, deposit.confirmed_sats - credited);
}

/** Coins for `sats` at the rate the deposit was quoted (coins for amount_sats), rounded down. */
export function coinsForSats(deposit: { coins: number; amount_sats: number }, sats: number): number {
  return Number((BigInt(deposit.coins) * BigInt(sats)) / BigInt(deposit.amount_sats));
}

/**
 * The dollars `sats` were worth at the deposit's quote (its cents for
 * amount_sats), rounded down: what the credit converts to coins.
 */
export function centsForSats(deposit: { usd_cents: number; amount_sats: number }, sats: number): number {
  return Number((BigInt(deposit.usd_cents) * BigInt(sats)) / BigInt(deposit.amount_sats));
}

/** True when `text` is an address on the platform's bitcoin network. */
export function isBitcoinAddress(text: string, network: 'mainnet' | 'testnet'): boolean {
  try {
    address.toOutputScript(text, network === 'mainnet' ? networks.bitcoin : networks.testnet);
    return true;
  } catch {
    return false;
  }
}

const inTransaction = <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<Database>) => work(trx));

export interface BitcoinResolution {
  request: ResolveBitcoinDepositRequest;
  /** The operator's ledger owner id: the events' actor. */
  operator: string;
  network: 'mainnet' | 'testnet';
  settings: LedgerSettings;
  metadata: Partial<EventMetadata>;
  now: Date;
}

/**
 * Resolves a flagged bitcoin deposit in one database transaction: the
 * deposit's row is locked first, so two operators (or a retry racing its
 * first attempt) resolve it once, the second finding it resolved. In that
 * transaction: for a credit, the CreditBitcoinPayment ledger transaction;
 * the deposit's own ledger transaction closed (RejectDeposit with the
 * resolution as its reason) if it is still pending; the
 * BitcoinDepositResolved event; and the row's resolution. A crash
 * anywhere leaves all of it or none.
 */
export async function resolveBitcoinDeposit(
  db: Kysely<Database>,
  resolution: BitcoinResolution,
): Promise<{ creditRecord: TransactionRecord | null; ownerId: string }> {
  const { request, operator, settings, metadata } = resolution;
  const refundAddress = request.resolution === 'refund' ? (request.refund_address ?? '') : null;
  if (refundAddress !== null && !isBitcoinAddress(refundAddress, resolution.network))
    throw refuse(422, errorCodes.bitcoinAddressInvalid, { field: 'refund_address' });

  return inTransaction(db, async (trx) => {
    const deposit = await trx
      .selectFrom('bitcoin_deposits')
      .select(['tx_id', 'watch_state', 'resolution', 'confirmed_sats', 'amount_sats', 'coins', 'usd_cents', 'address'])
      .where('tx_id', '=', request.tx_id)
      .forUpdate()
      .executeTakeFirst();
    if (!deposit) throw refuse(404, errorCodes.bitcoinDepositNotFound, { field: 'tx_id' });
    if (deposit.watch_state !== 'flagged' || deposit.resolution !== null)
      throw refuse(422, errorCodes.bitcoinDepositNotFlagged, { field: 'tx_id' });
    const ledgerTx = await loadTransaction(trx, deposit.tx_id);
    if (!ledgerTx?.payeeOwnerId) throw new Error(`bitcoin deposit ${deposit.tx_id} has no ledger transaction`);
    const ownerId = ledgerTx.payeeOwnerId;
    const sats = satsToResolve(deposit, ledgerTx.state);
    const coins = coinsForSats(deposit, sats);
    if (sats === 0 || (refundAddress === null && coins === 0))
      throw refuse(422, errorCodes.nothingToResolve, { field: 'tx_id' });

    let creditRecord: TransactionRecord | null = null;
    if (refundAddress === null) {
      // Worth less than a cent, the satoshis are coins without a dollar leg.
      const cents = centsForSats(deposit, sats);
      const credited = await executeLedgerCommand(
        trx,
        {
          type: 'CreditBitcoinPayment',
          txId: creditTransactionId(deposit.tx_id),
          depositTxId: deposit.tx_id,
          ownerId,
          sats,
          coins,
          creditedBy: operator,
          ...(cents > 0 ? { payment: { amount: cents, currency: 'USD' as const } } : {}),
        },
        settings,
        metadata,
      );
      creditRecord = credited.record;
    }
    const outcome =
      refundAddress === null
        ? `${sats} sats credited as ${coins} coin minor units in ${creditTransactionId(deposit.tx_id)}`
        : `${sats} sats refunded to ${refundAddress}`;
    if (ledgerTx.state === 'pending') {
      await executeLedgerCommand(
        trx,
        {
          type: 'RejectDeposit',
          txId: deposit.tx_id,
          reason: `Resolved by an operator: ${outcome}`,
          rejectedBy: operator,
        },
        settings,
        metadata,
      );
    }
    await appendToStream(
      trx,
      bitcoinDepositStream(deposit.tx_id),
      [
        {
          type: 'BitcoinDepositResolved',
          data: {
            txId: deposit.tx_id,
            resolution: refundAddress === null ? 'credited' : 'refunded',
            sats,
            coins: refundAddress === null ? coins : 0,
            creditTxId: creditRecord?.txId ?? null,
            refundAddress,
            reason: request.reason,
            resolvedBy: operator,
          },
        },
      ],
      { expectedVersion: 0, metadata: { ...metadata, actor: operator }, now: () => resolution.now },
    );
    await trx
      .updateTable('bitcoin_deposits')
      .set({
        resolution: refundAddress === null ? 'credited' : 'refunded',
        resolved_sats: sats,
        resolved_by: operator,
        resolved_at: resolution.now,
        credit_tx_id: creditRecord?.txId ?? null,
        refund_address: refundAddress,
      })
      .where('tx_id', '=', deposit.tx_id)
      .execute();
    return { creditRecord, ownerId };
  });
}
