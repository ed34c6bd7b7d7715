import {
  checkRecoveryCodeRequest,
  errorCodes,
  recoveryCodeCheckedResponse,
  recoveryEmailResponse,
  recoveryMessages,
  recoveryStepResponse,
  recoveryUsername,
  resetPasswordRequest,
} from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { hashPassword } from '../accounts/index.ts';
import { confirmSecurityAnswers, questionsOf } from '../credentials/index.ts';
import {
  findRecoveryAccount,
  issueRecoveryCode,
  latestRecoveryCode,
  markRecoveryCodeChecked,
  resetPasswordWithCode,
  spendRecoveryTry,
  type RecoveryCodeRow,
} from './queries.ts';
import {
  decoyMaskedEmail,
  maskEmail,
  newRecoveryCode,
  recoveryCodeMatches,
  recoveryCodeState,
} from './recovery-code.ts';

const invalidCode = () => refuse(422, errorCodes.recoveryCodeInvalid, { field: 'recoveryCode' });
const expiredCode = () => refuse(422, errorCodes.recoveryCodeExpired, { field: 'recoveryCode' });
const triesUsed = () => refuse(422, errorCodes.recoveryCodeTriesUsed, { field: 'recoveryCode' });

/** Only an account that could sign in afterwards gets a code; the others are answered as if it had none. */
const canRecover = (account: { account_status: string; is_banned: boolean } | undefined) =>
  account !== undefined && account.account_status === 'active' && !account.is_banned;

/**
 * The user's live code if `recoveryCode` is it; otherwise the refusal the
 * form shows. A wrong code costs one of its 5 tries. An unknown username
 * answers like a wrong code.
 */
async function matchingCode(
  db: Kysely<Database>,
  username: string,
  recoveryCode: string,
  now: Date,
): Promise<{ userId: number; code: RecoveryCodeRow }> {
  const account = await findRecoveryAccount(db, username);
  const code = canRecover(account) && account ? await latestRecoveryCode(db, account.user_id) : undefined;
  const state = recoveryCodeState(code, now);
  if (state === 'expired') throw expiredCode();
  if (state === 'tries-used') throw triesUsed();
  if (state === 'none' || !account || !code) throw invalidCode();
  if (!recoveryCodeMatches(recoveryCode, code)) {
    throw (await spendRecoveryTry(db, code.recovery_id)) ? invalidCode() : triesUsed();
  }
  return { userId: account.user_id, code };
}

/**
 * Forgot password, the spec's five steps (§2). Every step is anonymous and
 * rate-limited per client address. Who has an account is not told: an
 * unknown username gets a stable decoy address, a "sent" answer, and "wrong
 * code".
 */
export const recoveryRoutes: FastifyPluginAsyncZod = (app) => {
  const limited = { config: { access: 'public' as const, rateLimit: app.rateLimits.recovery } };

  app.post(
    '/api/user/get-recovery-email',
    {
      config: {
        ...limited.config,
        operation: {
          operationId: 'getRecoveryEmail',
          summary: 'Show the masked recovery e-mail of a user',
          tag: 'recovery',
          errors: [404],
        },
      },
      schema: { body: recoveryUsername, response: { 200: recoveryEmailResponse } },
    },
    async (request) => {
      const { username } = request.body;
      const account = await findRecoveryAccount(app.db, username);
      return {
        response: 'success' as const,
        email: canRecover(account) && account ? maskEmail(account.email) : decoyMaskedEmail(username),
      };
    },
  );

  app.post(
    '/api/user/send-recovery-code',
    {
      config: {
        ...limited.config,
        operation: {
          operationId: 'sendRecoveryCode',
          summary: 'E-mail a recovery code',
          tag: 'recovery',
          errors: [404],
        },
      },
      schema: { body: recoveryUsername, response: { 200: recoveryStepResponse } },
    },
    async (request) => {
      const account = await findRecoveryAccount(app.db, request.body.username);
      // Past the hourly cap the answer is the same, so it does not tell that the account exists.
      if (
        canRecover(account) &&
        account &&
        !(await issueRecoveryCode(app.db, app.jobs, account, newRecoveryCode(), app.clock()))
      )
        request.log.warn({ userId: account.user_id }, 'recovery code not sent: hourly cap reached');
      return { response: 'success' as const };
    },
  );

  app.post(
    '/api/user/check-recovery-code',
    {
      config: {
        ...limited.config,
        operation: {
          operationId: 'checkRecoveryCode',
          summary: 'Check a recovery code',
          tag: 'recovery',
          errors: [404, 422],
        },
      },
      schema: { body: checkRecoveryCodeRequest, response: { 200: recoveryCodeCheckedResponse } },
    },
    async (request) => {
      const now = app.clock();
      const { userId, code } = await matchingCode(app.db, request.body.username, request.body.recoveryCode, now);
      // Out of time or tries between the read and now: the same answers as before it.
      if (!(await markRecoveryCodeChecked(app.db, code.recovery_id, now))) throw invalidCode();
      const questions = await questionsOf(app.db, userId);
      return { response: 'success' as const, ...(questions.length > 0 ? { security_questions: questions } : {}) };
    },
  );

  app.post(
    '/api/user/reset-password',
    {
      config: {
        ...limited.config,
        operation: {
          operationId: 'resetPassword',
          summary: 'Set a new password with a checked recovery code',
          tag: 'recovery',
          errors: [404, 422],
        },
      },
      schema: { body: resetPasswordRequest, response: { 200: recoveryStepResponse } },
    },
    async (request, reply) => {
      const now = app.clock();
      const { userId, code } = await matchingCode(app.db, request.body.username, request.body.recoveryCode, now);
      if (code.checked_at === null) throw refuse(422, errorCodes.recoveryCodeNotChecked, { field: 'recoveryCode' });
      // The e-mailed code proves the mailbox; the answers prove the person, when they chose questions.
      await confirmSecurityAnswers(
        app.db,
        reply,
        { userId, answers: request.body.security_answers, field: 'security_answers' },
        now,
      );
      const passwordHash = await hashPassword(request.body.userPassword);
      const reset = await resetPasswordWithCode(
        app.db,
        app.sessions,
        { userId, recoveryId: code.recovery_id, passwordHash, keepSession: request.session?.key ?? null },
        now,
      );
      if (!reset) throw invalidCode();
      return { response: 'success' as const, message: recoveryMessages.passwordChanged };
    },
  );

  return Promise.resolve();
};
