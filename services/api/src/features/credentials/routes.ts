import {
  changePinRequest,
  credentialChangedResponse,
  credentialMessages,
  errorCodes,
  securityQuestionListResponse,
  securitySettingsResponse,
  setPinRequest,
  setSecurityQuestionsRequest,
  verifyPinRequest,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { findUser, verifyPassword } from '../accounts/index.ts';
import { confirmPin, hashAnswer, hashPin, questionsOf } from './checks.ts';
import { knownQuestions, listSecurityQuestions, pinHashOf, saveSecurityAnswers, savePin } from './queries.ts';
import { clearTries, lockedUntil } from './tries.ts';

/**
 * The Security tab's PIN and security questions, for the signed-in user
 * only (no call names another user). Setting either needs the account
 * password; the PIN then confirms withdrawals, and the questions become a
 * second step of password recovery.
 */
export const credentialRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);
  const passwordLimited = { config: { rateLimit: app.rateLimits.passwordChange } };

  /** The account password, checked as change-password checks the current one (3026 when wrong). */
  const checkPassword = async (userId: number, password: string) => {
    const user = await findUser(app.db, userId);
    if (!user) throw refuse(404, errorCodes.userNotFound);
    if (!(await verifyPassword(password, user.password_hash)))
      throw refuse(422, errorCodes.currentPasswordWrong, { field: 'password' });
  };

  app.get(
    '/api/user/security-settings',
    {
      config: {
        operation: {
          operationId: 'getSecuritySettings',
          summary: 'Tell whether a PIN and questions are set',
          tag: 'credentials',
        },
      },
      schema: { response: { 200: securitySettingsResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const locked = await lockedUntil(app.db, userId, 'pin', app.clock());
      return {
        response: 'success' as const,
        pin_set: (await pinHashOf(app.db, userId)) !== undefined,
        pin_locked_until: locked?.toISOString() ?? null,
        security_questions: await questionsOf(app.db, userId),
      };
    },
  );

  app.get(
    '/api/user/security-questions',
    {
      config: {
        operation: {
          operationId: 'listSecurityQuestions',
          summary: 'List the security questions to choose',
          tag: 'credentials',
        },
      },
      schema: { response: { 200: securityQuestionListResponse } },
    },
    async () => ({ response: 'success' as const, questions: await listSecurityQuestions(app.db) }),
  );

  app.post(
    '/api/user/set-pin',
    {
      config: {
        ...passwordLimited.config,
        operation: { operationId: 'setPin', summary: 'Set the PIN', tag: 'credentials', errors: [409, 422] },
      },
      schema: { body: setPinRequest, response: { 200: credentialChangedResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      await checkPassword(userId, request.body.password);
      const hadPin = (await pinHashOf(app.db, userId)) !== undefined;
      await savePin(app.db, userId, await hashPin(request.body.pin), app.clock());
      // The password proved the owner: a PIN locked by wrong tries opens with the new one.
      await clearTries(app.db, userId, 'pin');
      return {
        response: 'success' as const,
        message: hadPin ? credentialMessages.pinUpdated : credentialMessages.pinSet,
      };
    },
  );

  app.post(
    '/api/user/change-pin',
    {
      config: {
        operation: { operationId: 'changePin', summary: 'Change the PIN', tag: 'credentials', errors: [422] },
      },
      schema: { body: changePinRequest, response: { 200: credentialChangedResponse } },
    },
    async (request, reply) => {
      const { userId } = signedIn(request);
      const now = app.clock();
      await confirmPin(app.db, reply, { userId, pin: request.body.old_pin, field: 'old_pin' }, now);
      await savePin(app.db, userId, await hashPin(request.body.new_pin), now);
      return { response: 'success' as const, message: credentialMessages.pinUpdated };
    },
  );

  app.post(
    '/api/user/verify-pin',
    {
      config: { operation: { operationId: 'verifyPin', summary: 'Check the PIN', tag: 'credentials', errors: [422] } },
      schema: { body: verifyPinRequest, response: { 200: credentialChangedResponse } },
    },
    async (request, reply) => {
      const { userId } = signedIn(request);
      await confirmPin(app.db, reply, { userId, pin: request.body.pin, field: 'pin' }, app.clock());
      return { response: 'success' as const, message: credentialMessages.pinVerified };
    },
  );

  app.post(
    '/api/user/set-security-questions',
    {
      config: {
        ...passwordLimited.config,
        operation: {
          operationId: 'setSecurityQuestions',
          summary: 'Choose and answer security questions',
          tag: 'credentials',
          errors: [422],
        },
      },
      schema: { body: setSecurityQuestionsRequest, response: { 200: credentialChangedResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const ids = request.body.questions.map((each) => each.question_id);
      if ((await knownQuestions(app.db, ids)) !== ids.length)
        throw refuse(422, errorCodes.invalidArguments, {
          field: 'questions',
          message: credentialMessages.questionRequired,
        });
      await checkPassword(userId, request.body.password);
      const answers = await Promise.all(
        request.body.questions.map(async (each) => ({
          question_id: each.question_id,
          answer_hash: await hashAnswer(each.answer),
        })),
      );
      await saveSecurityAnswers(app.db, userId, answers, app.clock());
      await clearTries(app.db, userId, 'security-answers');
      return { response: 'success' as const, message: credentialMessages.questionsSaved };
    },
  );

  return Promise.resolve();
};
