import {
  bitcoinDepositsQuery,
  bitcoinDepositsResponse,
  approveCorrectionRequest,
  clearDepositRequest,
  coinTrailQuery,
  coinTrailResponse,
  correctBalanceRequest,
  correctionDecisionResponse,
  correctionRequestedResponse,
  emailOutboxQuery,
  emailOutboxResponse,
  errorCodes,
  type ErrorCode,
  eventLogQuery,
  eventLogResponse,
  failWithdrawalRequest,
  ledgerVerificationResponse,
  ledgerVerificationStartResponse,
  noInput,
  operationResponse,
  pendingCorrectionsQuery,
  pendingCorrectionsResponse,
  pendingDepositsQuery,
  pendingDepositsResponse,
  pendingWithdrawalsQuery,
  pendingWithdrawalsResponse,
  platformBalancesResponse,
  processWithdrawalRequest,
  rejectCorrectionRequest,
  rejectDepositRequest,
  resolveBitcoinDepositRequest,
  resolveBitcoinDepositResponse,
  operatorAuditQuery,
  operatorAuditResponse,
  operationsOverviewResponse,
  banUserRequest,
  approveBanRequest,
  banDecisionResponse,
  banRequestedResponse,
  pendingBansQuery,
  pendingBansResponse,
  rejectBanRequest,
  peopleQuery,
  revokeSessionRequest,
  peopleResponse,
  personQuery,
  personResponse,
} from '@peeks/contracts';
import { IdempotencyKeyReused, runIdempotently, type Database } from '@peeks/db';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { coinTrail, loadTransaction, platformBalances, requestedPayoutOf } from '@peeks/ledger-store';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { LedgerCommand } from '@peeks/ledger';
import type { z } from 'zod';
import { withCommitHooks } from '../../plugins/after-commit.ts';
import { ApiError, refuse } from '../../plugins/error-envelope.ts';
import {
  idempotencyKeyOf,
  markIdempotentReplay,
  moveMoney,
  presentTransaction,
  requestFingerprint,
  runLedgerCommand,
  transactionIdFor,
} from '../payments/index.ts';
import { resolveBitcoinDeposit } from './bitcoin-resolution.ts';
import {
  correctionRoute,
  decideCorrection,
  overCap,
  pendingCorrections,
  requestCorrection,
  type CorrectionLimits,
} from './corrections.ts';
import { depositMismatches } from './matching.ts';
import { operationsOverview } from './overview.ts';
import { revokeSession, setBanned } from './account-actions.ts';
import { banOrRequest, decideBan, pendingBans } from './ban-requests.ts';
import { findPeople, operatorActions, personView } from './people.ts';
import { operatorOf, requireFinanceOperator } from './operator.ts';
import {
  bitcoinDeposits,
  emailOutbox,
  eventLog,
  findEmailDeposit,
  findWithdrawal,
  pendingDeposits,
  pendingWithdrawals,
  platformBalanceSheet,
} from './queries.ts';
import { LedgerVerificationJob } from './verification.ts';
import type { RouteOperation } from '../../openapi/route-operation.ts';

const success = 'success' as const;

/** Whether `key` was claimed in the operations console's key table for `scope`. */
async function keyClaimed(db: Kysely<Database>, scope: string, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The operations console (finance operators only): match and clear or
 * reject e-mail transfer deposits, pay out or fail withdrawals, correct
 * balances with a reason (above a threshold only with a second operator's
 * approval, never above a cap), and audit coin serials, the event log and
 * the ledger. Every change is a ledger command, so it is an event with the
 * operator as its actor. Operators also read the e-mail outbox, its secrets redacted,
 * and the bitcoin deposits the watcher flagged.
 */
export interface OperationSettings {
  /** BITCOIN_NETWORK: refund addresses must be on it. */
  bitcoinNetwork: 'mainnet' | 'testnet';
  /** Development without a mail server: answer outbox messages' texts, secrets included. */
  outboxBodies: boolean;
  /** CORRECTION_MAX_MINOR and CORRECTION_APPROVAL_MINOR. */
  corrections: CorrectionLimits;
  /** The ledger log's verifier key, so a verification checks the checkpoints' signatures too. */
  ledgerLogKey?: string | undefined;
}

export const operationRoutes: FastifyPluginAsyncZod<OperationSettings> = (app, settings) => {
  app.addHook('onRequest', requireFinanceOperator);
  const verification = new LedgerVerificationJob(app.db, app.clock, app.log, settings.ledgerLogKey);
  app.addHook('onClose', () => verification.settled());

  /** The deposit or withdrawal an operator settles: refused when it is not there (`notFound`, 404) or no longer pending (422). */
  function stillPending<Found extends { state: string }>(found: Found | undefined, notFound: ErrorCode): Found {
    if (!found) throw refuse(404, notFound, { field: 'tx_id' });
    if (found.state !== 'pending') throw refuse(422, errorCodes.transactionStateInvalid, { field: 'tx_id' });
    return found;
  }

  const pendingEmailDeposit = async (db: Kysely<Database>, txId: string) =>
    stillPending(await findEmailDeposit(db, txId), errorCodes.depositNotFound);

  const pendingWithdrawal = async (db: Kysely<Database>, txId: string) =>
    stillPending(await findWithdrawal(db, txId), errorCodes.withdrawalNotFound);

  /**
   * An operator's step on an existing transaction, done once per
   * Idempotency-Key: a retry or a second click gets the first answer back,
   * not a refusal that the deposit is no longer pending. The key is claimed
   * in the transaction that does the step, so a refused step leaves it free.
   * Without a key the step simply runs (and a repeat is refused).
   */
  async function once<Answer>(
    request: FastifyRequest,
    step: (db: Kysely<Database>) => Promise<Answer>,
  ): Promise<Answer> {
    const key = idempotencyKeyOf(request);
    if (key === null) return step(app.db);
    const claim = { scope: `operations:${operatorOf(request)}`, key, fingerprint: requestFingerprint(request) };
    const { body, replayed } = await withCommitHooks((enlist) =>
      runIdempotently(app.db, claim, async (trx) => {
        enlist(trx);
        return { statusCode: 200, body: await step(trx) };
      }),
    );
    if (replayed) markIdempotentReplay(request);
    return body;
  }

  /**
   * An operator's step that settles a pending deposit or withdrawal, once
   * per key: the ledger command on what `pending` found (refused as it
   * refuses), answered with the transaction as its owner sees it.
   */
  const settle = <Pending extends { owner_id: string }>(
    request: FastifyRequest,
    pending: (db: Kysely<Database>) => Promise<Pending>,
    command: (found: Pending, operator: string) => LedgerCommand,
  ) =>
    once(request, async (db) => {
      const found = await pending(db);
      const operator = operatorOf(request);
      const { record } = await runLedgerCommand(request, operator, command(found, operator), db);
      return { response: success, transaction: await presentTransaction(db, found.owner_id, record) };
    });

  /**
   * One of the console's lists, described by `operation`: `read` gets the
   * query as `querystring` reads it and its page is answered beside
   * `response: success`, as `response` (the OpenAPI document's 200) writes it.
   */
  function list<Query extends z.ZodType, Page extends object>(
    path: string,
    operation: RouteOperation,
    querystring: Query,
    response: z.ZodType<unknown, { response: typeof success } & Page>,
    read: (query: z.output<Query>, request: FastifyRequest) => Promise<Page>,
  ) {
    // The call's types tie the schemas to `read`; fastify sees them as schemas only.
    const schema: { querystring: z.ZodType; response: { 200: z.ZodType } } = {
      querystring,
      response: { 200: response },
    };
    app.get(path, { config: { operation }, schema }, async (request) => ({
      response: success,
      // The validator has read the query with `querystring`.
      ...(await read(request.query as z.output<Query>, request)),
    }));
  }

  list(
    '/api/operations/deposits',
    {
      operationId: 'listPendingDeposits',
      summary: 'List e-mail transfer deposits to clear',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    pendingDepositsQuery,
    pendingDepositsResponse,
    (query) => pendingDeposits(app.db, query),
  );

  app.post(
    '/api/operations/clear-deposit',
    {
      config: {
        operation: {
          operationId: 'clearDeposit',
          summary: 'Clear an e-mail transfer deposit',
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: clearDepositRequest, response: { 200: operationResponse } },
    },
    (request) => {
      const { tx_id: txId, ...received } = request.body;
      return settle(
        request,
        async (db) => {
          const deposit = await pendingEmailDeposit(db, txId);
          const problems = depositMismatches(deposit, received);
          if (problems.length > 0)
            throw new ApiError(422, problems.map((problem) => problem.message).join('. '), problems);
          return deposit;
        },
        (_deposit, operator) => ({ type: 'ClearDeposit', txId, clearedBy: operator }),
      );
    },
  );

  app.post(
    '/api/operations/reject-deposit',
    {
      config: {
        operation: {
          operationId: 'rejectDeposit',
          summary: 'Reject an e-mail transfer deposit',
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: rejectDepositRequest, response: { 200: operationResponse } },
    },
    (request) =>
      settle(
        request,
        (db) => pendingEmailDeposit(db, request.body.tx_id),
        (deposit, operator) => ({
          type: 'RejectDeposit',
          txId: deposit.tx_id,
          reason: request.body.reason,
          rejectedBy: operator,
        }),
      ),
  );

  list(
    '/api/operations/withdrawals',
    {
      operationId: 'listWithdrawals',
      summary: 'List withdrawals to pay out',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    pendingWithdrawalsQuery,
    pendingWithdrawalsResponse,
    (query) => pendingWithdrawals(app.db, query),
  );

  app.post(
    '/api/operations/process-withdrawal',
    {
      config: {
        operation: {
          operationId: 'processWithdrawal',
          summary: 'Mark a withdrawal paid',
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: processWithdrawalRequest, response: { 200: operationResponse } },
    },
    (request) =>
      settle(
        request,
        async (db) => ({
          ...(await pendingWithdrawal(db, request.body.tx_id)),
          payout: await requestedPayoutOf(db, request.body.tx_id),
        }),
        (withdrawal) => ({
          type: 'ProcessWithdrawal',
          txId: withdrawal.tx_id,
          payoutReference: request.body.payout_reference,
          ...(withdrawal.payout ? { payout: withdrawal.payout } : {}),
        }),
      ),
  );

  app.post(
    '/api/operations/fail-withdrawal',
    {
      config: {
        operation: {
          operationId: 'failWithdrawal',
          summary: 'Mark a withdrawal failed and refund it',
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: failWithdrawalRequest, response: { 200: operationResponse } },
    },
    (request) =>
      settle(
        request,
        (db) => pendingWithdrawal(db, request.body.tx_id),
        (withdrawal) => ({ type: 'FailWithdrawal', txId: withdrawal.tx_id, reason: request.body.reason }),
      ),
  );

  /** Who, why and from where, for the events an operator's step appends itself. */
  const eventMetadata = (request: FastifyRequest) => {
    const key = idempotencyKeyOf(request);
    return {
      actor: operatorOf(request),
      requestId: request.id,
      idempotencyKey: key,
      requestFingerprint: key === null ? null : requestFingerprint(request),
      clientIp: request.ip,
    };
  };

  app.post(
    '/api/operations/correct-balance',
    {
      config: {
        operation: {
          operationId: 'correctBalance',
          summary: "Correct a wallet's balance",
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: {
        body: correctBalanceRequest,
        response: { 200: operationResponse, 202: correctionRequestedResponse },
      },
    },
    async (request, reply) => {
      const { user_id: userId, merchant_id: merchantId, currency, amount, reason } = request.body;
      const ownerId = userId === undefined ? merchantOwnerId(merchantId ?? 0) : userOwnerId(userId);
      const operator = operatorOf(request);
      const route = correctionRoute(amount, settings.corrections);
      if (route === 'over-cap') throw overCap(settings.corrections);
      // A key is remembered by the ledger for a posted correction and by the key table for a requested one:
      // each path looks in the other's place, so one key cannot serve a small and a large correction.
      const key = idempotencyKeyOf(request);
      if (route === 'approval') {
        // Nothing moves yet: a second operator approves it at /api/operations/approve-correction.
        const correction = await once(request, async (db) => {
          if (key !== null && (await loadTransaction(db, transactionIdFor(request, operator))))
            throw new IdempotencyKeyReused(key);
          return requestCorrection(db, {
            ownerId,
            currency,
            amount,
            reason,
            operator,
            metadata: eventMetadata(request),
            now: app.clock(),
          });
        });
        return reply.code(202).send({ response: success, correction });
      }
      if (key !== null && (await keyClaimed(app.db, `operations:${operator}`, key)))
        throw new IdempotencyKeyReused(key);
      const { record } = await moveMoney(request, operator, (txId) => ({
        type: 'CorrectBalance',
        txId,
        ownerId,
        amount,
        currency,
        reason,
        operatorId: operator,
      }));
      return reply
        .code(200)
        .send({ response: success, transaction: await presentTransaction(app.db, ownerId, record) });
    },
  );

  list(
    '/api/operations/corrections',
    {
      operationId: 'listPendingCorrections',
      summary: 'List corrections waiting for a second operator',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    pendingCorrectionsQuery,
    pendingCorrectionsResponse,
    (query) => pendingCorrections(app.db, query),
  );

  const decide = (
    request: FastifyRequest,
    decision: 'approve' | 'reject',
    correctionId: string,
    reason: string | null,
  ) =>
    once(request, async (db) => {
      const { correction, record } = await decideCorrection(db, {
        correctionId,
        decision,
        reason,
        operator: operatorOf(request),
        settings: app.ledgerSettings,
        metadata: eventMetadata(request),
        now: app.clock(),
      });
      return {
        response: success,
        correction,
        transaction: record && (await presentTransaction(db, correction.owner_id, record)),
      };
    });

  app.post(
    '/api/operations/approve-correction',
    {
      config: {
        operation: {
          operationId: 'approveCorrection',
          summary: "Approve another operator's correction, which posts it",
          tag: 'operations',
          errors: [403, 404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
          description: 'The operator who asked for the correction is refused (403).',
        },
      },
      schema: { body: approveCorrectionRequest, response: { 200: correctionDecisionResponse } },
    },
    (request) => decide(request, 'approve', request.body.correction_id, null),
  );

  app.post(
    '/api/operations/reject-correction',
    {
      config: {
        operation: {
          operationId: 'rejectCorrection',
          summary: "Reject another operator's correction",
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: rejectCorrectionRequest, response: { 200: correctionDecisionResponse } },
    },
    (request) => decide(request, 'reject', request.body.correction_id, request.body.reason),
  );

  app.get(
    '/api/operations/coin-trail',
    {
      config: {
        operation: {
          operationId: 'getCoinTrail',
          summary: "Follow one coin serial's movements",
          tag: 'operations',
          errors: [403, 404],
          caller: 'operator',
        },
      },
      schema: { querystring: coinTrailQuery, response: { 200: coinTrailResponse } },
    },
    async (request) => {
      const trail = await coinTrail(app.reader(request), request.query.serial);
      if (trail.length === 0) throw refuse(404, errorCodes.coinNotFound, { field: 'serial' });
      return {
        response: success,
        serial: request.query.serial,
        trail: trail.map((step) => ({
          serial: step.serial,
          action: step.action,
          value: step.value,
          from_account: step.fromAccount,
          to_account: step.toAccount,
          parent_serial: step.parentSerial,
          from_serial: step.fromSerial,
          tx_id: step.txId,
          event_position: step.eventPosition,
          event_type: step.eventType,
          event_time: step.eventTime.toISOString(),
        })),
      };
    },
  );

  list(
    '/api/operations/events',
    {
      operationId: 'listEvents',
      summary: "List a stream's events",
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    eventLogQuery,
    eventLogResponse,
    (query, request) => eventLog(app.reader(request), query),
  );

  app.get(
    '/api/operations/ledger-verify',
    {
      config: {
        operation: {
          operationId: 'getLedgerVerification',
          summary: 'Get the latest ledger verification',
          tag: 'operations',
          errors: [403],
          caller: 'operator',
        },
      },
      schema: { response: { 200: ledgerVerificationResponse } },
    },
    async () => ({
      response: success,
      verification: await verification.status(),
    }),
  );

  app.post(
    '/api/operations/ledger-verify',
    {
      config: {
        operation: {
          operationId: 'verifyLedger',
          summary: 'Verify the ledger now',
          tag: 'operations',
          caller: 'operator',
        },
      },
      schema: { body: noInput, response: { 200: ledgerVerificationStartResponse } },
    },
    async (request) => {
      const started = await verification.start(operatorOf(request));
      return { response: success, started, verification: await verification.status() };
    },
  );

  app.get(
    '/api/operations/platform-balances',
    {
      config: {
        operation: {
          operationId: 'getPlatformBalances',
          summary: "Get the platform's own balances",
          tag: 'operations',
          errors: [403],
          caller: 'operator',
        },
      },
      schema: { response: { 200: platformBalancesResponse } },
    },
    async () => ({
      response: success,
      ...(await platformBalanceSheet(app.db, platformBalances.name)),
    }),
  );

  list(
    '/api/operations/emails',
    {
      operationId: 'listEmails',
      summary: 'List the e-mail outbox',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    emailOutboxQuery,
    emailOutboxResponse,
    (query) => emailOutbox(app.db, query, settings.outboxBodies),
  );

  list(
    '/api/operations/bitcoin-deposits',
    {
      operationId: 'listBitcoinDeposits',
      summary: 'List bitcoin deposits',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    bitcoinDepositsQuery,
    bitcoinDepositsResponse,
    (query) => bitcoinDeposits(app.db, query),
  );

  app.get(
    '/api/operations/overview',
    {
      config: {
        operation: {
          operationId: 'getOperationsOverview',
          summary: 'Get the daily movements overview',
          tag: 'operations',
          errors: [403],
          caller: 'operator',
        },
      },
      schema: { response: { 200: operationsOverviewResponse } },
    },
    async (request) => ({
      response: success,
      ...(await operationsOverview(app.reader(request), app.clock())),
    }),
  );

  app.get(
    '/api/operations/people',
    {
      config: {
        operation: {
          operationId: 'listPeople',
          summary: 'Search people',
          tag: 'operations',
          errors: [403],
          caller: 'operator',
        },
      },
      schema: { querystring: peopleQuery, response: { 200: peopleResponse } },
    },
    async (request) => ({
      response: success,
      people: await findPeople(app.db, request.query.q, request.query.limit),
    }),
  );

  /** The person as the console shows them, also after an action on their account. */
  async function person(userId: number) {
    const view = await personView(app.db, userId, app.clock());
    if (!view) throw refuse(404, errorCodes.userNotFound, { field: 'user_id' });
    return { response: success, ...view };
  }

  app.get(
    '/api/operations/person',
    {
      config: {
        operation: {
          operationId: 'getPerson',
          summary: 'Get one person, their wallets and activity',
          tag: 'operations',
          errors: [403, 404],
          caller: 'operator',
        },
      },
      schema: { querystring: personQuery, response: { 200: personResponse } },
    },
    (request) => person(request.query.user_id),
  );

  list(
    '/api/operations/audit',
    {
      operationId: 'listAudit',
      summary: "List the operators' actions",
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    operatorAuditQuery,
    operatorAuditResponse,
    (query) => operatorActions(app.db, query),
  );

  const accountAction = (request: FastifyRequest, reason: string) => ({
    reason,
    metadata: { actor: operatorOf(request), requestId: request.id, clientIp: request.ip },
    now: app.clock(),
  });

  app.post(
    '/api/operations/revoke-session',
    {
      config: {
        operation: {
          operationId: 'revokeSession',
          summary: "End one of a user's sessions",
          tag: 'operations',
          errors: [403, 404],
          caller: 'operator',
        },
      },
      schema: { body: revokeSessionRequest, response: { 200: personResponse } },
    },
    async (request) => {
      const { user_id: userId, session_id: sessionId, reason } = request.body;
      const ended = await revokeSession(app.db, app.sessions, userId, sessionId, accountAction(request, reason));
      if (!ended) throw refuse(404, errorCodes.sessionNotFound, { field: 'session_id' });
      return person(userId);
    },
  );

  app.post(
    '/api/operations/ban-user',
    {
      config: {
        operation: {
          operationId: 'banUser',
          summary: 'Ban a user: no sign-in, every session ended',
          tag: 'operations',
          errors: [403, 404, 422],
          caller: 'operator',
          description:
            'A finance operator is not banned at once: the ban waits for a second operator (202) at approve-ban, and their sessions live on until then.',
        },
      },
      schema: { body: banUserRequest, response: { 200: personResponse, 202: banRequestedResponse } },
    },
    async (request, reply) => {
      const { user_id: userId, reason } = request.body;
      if (userId === request.session?.userId) throw refuse(422, errorCodes.banSelf, { field: 'user_id' });
      const banned = await banOrRequest(app.db, app.sessions, {
        userId,
        reason,
        operator: operatorOf(request),
        metadata: accountAction(request, reason).metadata,
        now: app.clock(),
      });
      if (banned.outcome === 'not-found') throw refuse(404, errorCodes.userNotFound, { field: 'user_id' });
      // A finance operator is not banned yet: a second operator approves it at /api/operations/approve-ban.
      if (banned.outcome === 'requested') return reply.code(202).send({ response: success, ban: banned.ban });
      return reply.code(200).send(await person(userId));
    },
  );

  app.post(
    '/api/operations/unban-user',
    {
      config: {
        operation: {
          operationId: 'unbanUser',
          summary: 'Lift a ban',
          tag: 'operations',
          errors: [403, 404],
          caller: 'operator',
        },
      },
      schema: { body: banUserRequest, response: { 200: personResponse } },
    },
    async (request) => {
      const { user_id: userId, reason } = request.body;
      const outcome = await setBanned(app.db, app.sessions, userId, false, accountAction(request, reason));
      if (outcome === 'not-found') throw refuse(404, errorCodes.userNotFound, { field: 'user_id' });
      return person(userId);
    },
  );

  list(
    '/api/operations/bans',
    {
      operationId: 'listPendingBans',
      summary: 'List bans of operators waiting for a second operator',
      tag: 'operations',
      errors: [403],
      caller: 'operator',
    },
    pendingBansQuery,
    pendingBansResponse,
    (query) => pendingBans(app.db, query),
  );

  const decideBanOnce = (
    request: FastifyRequest,
    decision: 'approve' | 'reject',
    banId: string,
    reason: string | null,
  ) =>
    once(request, async (db) => ({
      response: success,
      ban: await decideBan(db, app.sessions, {
        banId,
        decision,
        reason,
        operator: operatorOf(request),
        metadata: eventMetadata(request),
        now: app.clock(),
      }),
    }));

  app.post(
    '/api/operations/approve-ban',
    {
      config: {
        operation: {
          operationId: 'approveBan',
          summary: "Approve another operator's ban of an operator, which bans them and ends their sessions",
          tag: 'operations',
          errors: [403, 404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
          description: 'The operator who asked for the ban is refused (403), and the operator to be banned (422).',
        },
      },
      schema: { body: approveBanRequest, response: { 200: banDecisionResponse } },
    },
    async (request) => {
      return decideBanOnce(request, 'approve', request.body.ban_id, null);
    },
  );

  app.post(
    '/api/operations/reject-ban',
    {
      config: {
        operation: {
          operationId: 'rejectBan',
          summary: "Reject another operator's ban of an operator",
          tag: 'operations',
          errors: [403, 404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
          description: 'The operator who asked for the ban is refused (403).',
        },
      },
      schema: { body: rejectBanRequest, response: { 200: banDecisionResponse } },
    },
    (request) => decideBanOnce(request, 'reject', request.body.ban_id, request.body.reason),
  );

  app.post(
    '/api/operations/resolve-bitcoin-deposit',
    {
      config: {
        operation: {
          operationId: 'resolveBitcoinDeposit',
          summary: 'Credit or refund a flagged bitcoin deposit',
          tag: 'operations',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'operator',
        },
      },
      schema: { body: resolveBitcoinDepositRequest, response: { 200: resolveBitcoinDepositResponse } },
    },
    (request) =>
      once(request, async (db) => {
        const operator = operatorOf(request);
        const { creditRecord, ownerId } = await resolveBitcoinDeposit(db, {
          request: request.body,
          operator,
          network: settings.bitcoinNetwork,
          settings: app.ledgerSettings,
          metadata: eventMetadata(request),
          now: app.clock(),
        });
        const { deposits } = await bitcoinDeposits(db, { tx_id: request.body.tx_id, offset: 0, limit: 1 });
        const [deposit] = deposits;
        if (!deposit) throw new Error(`resolved bitcoin deposit ${request.body.tx_id} is gone`);
        return {
          response: success,
          deposit,
          transaction: creditRecord && (await presentTransaction(db, ownerId, creditRecord)),
        };
      }),
  );

  return Promise.resolve();
};
