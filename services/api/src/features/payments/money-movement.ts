import { errorCodes } from '@peeks/contracts';
import { fingerprintRequest, IdempotencyKeyReused, readStream, type Database } from '@peeks/db';
import { transactionStream, type LedgerCommand } from '@peeks/ledger';
import { executeLedgerCommand, type LedgerOutcome } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { refuse } from '../../plugins/error-envelope.ts';

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

/** Whether markIdempotentReplay marked the request: plugins/ledger.ts then sends `Idempotent-Replayed: true`. */
export const isIdempotentReplay = (request: FastifyRequest): boolean => replays.has(request);

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
