import {
  errorCodes,
  IDEMPOTENT_REPLAYED_HEADER,
  type HistoryCounterparty,
  type HistoryFunding,
  type HistoryQuote,
  type TransactionView,
} from '@peeks/contracts';
import { fingerprintRequest, IdempotencyKeyReused, readStream, type Database } from '@peeks/db';
import {
  merchantOwnerId,
  ownerOf,
  transactionStream,
  userOwnerId,
  type LedgerCommand,
  type TransactionRecord,
} from '@peeks/ledger';
import {
  executeLedgerCommand,
  WALLET_CHANGES_CHANNEL,
  walletChangeFollower,
  type LedgerJobs,
  type LedgerOutcome,
  type LedgerSettings,
} from '@peeks/ledger-store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { refuse } from './error-envelope.ts';
import { signedIn, type Session } from './sessions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What every ledger command of this app runs under: the hold time and the app's clock. */
    ledgerSettings: LedgerSettings;
  }
}

/**
 * Whose wallets a session acts on: the merchant's while it acts for a
 * merchant (a business user's sales are paid there, and switch-merchant
 * checked the membership), else the user's own. Every money call, reads,
 * payments and the live feed alike, goes through this one choice, so the
 * balance a user sees is the one they spend.
 */
export function walletOwnerOfSession(session: Pick<Session, 'merchantId'> & { userId: number }): string {
  return session.merchantId === null ? userOwnerId(session.userId) : merchantOwnerId(session.merchantId);
}

/** The signed-in caller's wallet owner; 401 when no one is signed in. */
export function sessionWalletOwner(request: FastifyRequest): string {
  return walletOwnerOfSession(signedIn(request));
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
// Printable ASCII, as Stripe and the IETF draft allow; long enough for a UUID with a prefix.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Requests whose answer is their Idempotency-Key's first one, replayed. */
const replays = new WeakSet<FastifyRequest>();

/**
 * Marks the request's answer as a replay of its Idempotency-Key's first
 * request: it leaves with `Idempotent-Replayed: true`, so a client can tell
 * that nothing was done this time.
 */
export function markIdempotentReplay(request: FastifyRequest): void {
  replays.add(request);
}

export const ledger = fp(
  async (app: FastifyInstance, options: { holdHours: number; cardFundsHoldHours: number; jobs: LedgerJobs }) => {
    app.decorate('ledgerSettings', {
      holdHours: options.holdHours,
      cardFundsHoldHours: options.cardFundsHoldHours,
      now: app.clock,
      jobs: options.jobs,
    });
    // Other processes' commits, announced: the group commit reads a wallet one of them moved once, not for a minute.
    const walletChanges = walletChangeFollower(app.db);
    await app.notifications.listen(WALLET_CHANGES_CHANNEL, walletChanges);
    if (app.notifications.listening) walletChanges.resumed();
    app.addHook('onClose', () => {
      walletChanges.lost();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      // A refusal is not the first request's answer, whatever was replayed on the way to it.
      if (replays.has(request) && reply.statusCode < 400) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      done(null, payload);
    });
  },
  { name: 'ledger', dependencies: ['sessions'] },
);

/**
 * The transaction id a money-moving request writes. With an Idempotency-Key
 * it is derived from the caller and the key, so a retry names the same
 * transaction and the ledger replays it instead of moving money again: the
 * ledger, not a lock or a table of keys, makes it exactly once, and group
 * commit stays open to keyed requests at no extra round trip. Without a key
 * every request is new.
 */
export function transactionIdFor(request: FastifyRequest, callerOwnerId: string): string {
  const key = idempotencyKeyOf(request);
  return key === null ? `tx_${randomBytes(16).toString('hex')}` : keyedTransactionId(callerOwnerId, key);
}

const keyedTransactionId = (callerOwnerId: string, key: string) =>
  `tx_${createHash('sha256').update(`ledger:${callerOwnerId}\u0000${key}`, 'utf8').digest('hex').slice(0, 32)}`;

/** The request's Idempotency-Key, or null without one; 400 for one that is not 1 to 255 printable ASCII characters. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
    throw refuse(400, errorCodes.invalidFormat, {
      field: 'Idempotency-Key',
      message: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
    });
  }
  return header;
}

/** What makes two requests with one Idempotency-Key the same request. */
export const requestFingerprint = (request: FastifyRequest) =>
  fingerprintRequest({
    method: request.method,
    path: request.routeOptions.url ?? request.url,
    body: request.body ?? null,
  });

/**
 * Runs a ledger command for a request, with who asked and from where as the
 * events' metadata. A refused command (LedgerRuleViolation) reaches the
 * client as 422, or 404 for a wallet or transaction that is not there.
 * The Idempotency-Key's request fingerprint goes into the metadata too: a
 * replay of a transaction named by the key (transactionIdFor) whose first
 * request was a different one is IdempotencyKeyReused (409), and this
 * request moved nothing. A transaction named otherwise (a checkout
 * session's) answers for itself. Pass a transaction as `db` to
 * commit the command with the request's own rows (it then runs alone,
 * outside group commit).
 */
export async function runLedgerCommand(
  request: FastifyRequest,
  callerOwnerId: string,
  command: LedgerCommand,
  db: Kysely<Database> = request.server.db,
): Promise<LedgerOutcome> {
  const key = idempotencyKeyOf(request);
  const fingerprint = key === null ? null : requestFingerprint(request);
  const outcome = await executeLedgerCommand(db, command, request.server.ledgerSettings, {
    actor: callerOwnerId,
    requestId: request.id,
    idempotencyKey: key,
    requestFingerprint: fingerprint,
    clientIp: request.ip,
  });
  if (key !== null && outcome.replayed && command.txId === keyedTransactionId(callerOwnerId, key)) {
    const [first] = await readStream(db, transactionStream(command.txId), { maxCount: 1 });
    if ((first?.metadata.requestFingerprint ?? null) !== fingerprint) throw new IdempotencyKeyReused(key);
    markIdempotentReplay(request);
  }
  return outcome;
}

/** A money movement that needs nothing but the ledger: its transaction id, then its command. */
export function moveMoney(
  request: FastifyRequest,
  callerOwnerId: string,
  commandFor: (txId: string) => LedgerCommand,
): Promise<LedgerOutcome> {
  return runLedgerCommand(request, callerOwnerId, commandFor(transactionIdFor(request, callerOwnerId)));
}

/** What a sale's returns gave back so far, and when last (kept on the sale's row, not in its stream). */
export interface SaleReturns {
  returnedAmount: number;
  returnDate: string | null;
}
const noReturns: SaleReturns = { returnedAmount: 0, returnDate: null };

/**
 * What a row says beyond the transaction itself, read from the ledger's
 * postings and the transaction's opening event (wallet/history-rows.ts).
 */
export interface RowFacts {
  walletChange: number;
  funding: HistoryFunding | null;
  counterparty: HistoryCounterparty | null;
  quote: HistoryQuote | null;
}

/**
 * A transaction as `viewerOwnerId` sees it: debit when money left the
 * viewer's side. Fields the ledger keeps no source for (addresses, cart,
 * terminal) are left to the feature that has one. A hold is the payee's:
 * the payer is not told of it.
 */
export function transactionView(
  record: TransactionRecord,
  viewerOwnerId: string,
  returns: SaleReturns | undefined,
  facts: RowFacts,
): TransactionView {
  const viewerPaid = record.payerOwnerId === viewerOwnerId;
  const party = ownerOf((viewerPaid ? record.payerOwnerId : record.payeeOwnerId) ?? viewerOwnerId);
  const merchant = record.merchantId === null ? null : ownerOf(record.merchantId);
  const isSale = record.type === 'sale';
  const { returnedAmount, returnDate } = returns ?? noReturns;
  const refunded = Math.min(returnedAmount, record.amount);
  const seesHold = !viewerPaid;
  return {
    tx_id: record.txId,
    entry_date: record.entryDate,
    return_date: returnDate,
    user_id: party?.kind === 'user' ? party.id : null,
    merchant_id: merchant?.id ?? (party?.kind === 'merchant' ? party.id : null),
    state: record.state,
    type: record.type,
    tx_class: record.txClass,
    merchant_batch_id: record.merchantBatchId,
    billing_address: null,
    shipping_address: null,
    debit_credit: viewerPaid ? 'D' : 'C',
    amount: record.amount,
    fee: record.fee,
    currency: record.currency,
    terminal_id: null,
    invoice_no: null,
    custom_1: null,
    error_code: null,
    fi_response_code: null,
    fi_response_text: record.state === 'failed' || record.state === 'rejected' ? record.reason : null,
    parent_tx_id: record.parentTxId,
    ip_address: null,
    // Only a sale given back in full is refunded; part of it is partially_refunded.
    refunded: isSale && refunded > 0 && refunded >= record.amount,
    cart: [],
    payment_method_type: record.paymentMethodType,
    payment_method: record.paymentMethodId,
    customer_Name: null,
    reference: record.reference,
    hold_amount: seesHold ? record.holdAmount : null,
    hold_release_at: seesHold ? record.holdReleaseAt : null,
    wallet_change: facts.walletChange,
    funding: facts.funding,
    counterparty: facts.counterparty,
    quote: facts.quote,
    partially_refunded: isSale && refunded > 0 && refunded < record.amount,
    refunded_amount: isSale ? refunded : 0,
    refundable_amount: isSale ? record.amount - refunded : 0,
  };
}
