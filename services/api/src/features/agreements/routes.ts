import {
  agreementListRequest,
  agreementListResponse,
  agreementLookupResponse,
  errorCodes,
  lookupQuery,
  updateAgreementRequest,
  updateAgreementResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { findMembership } from '../accounts/index.ts';
import { onlyOwn } from '../merchants/index.ts';
import { checkAnswer } from './answer.ts';
import { findAgreements, recordResponse, type AgreementParty } from './queries.ts';

/**
 * Agreements for every signed-in user; merchant agreements only for a
 * session acting for a merchant, and answered only with the agreements
 * permission on it.
 */
export const agreementRoutes: FastifyPluginAsyncZod = (app) => {
  const partyOf = (
    session: { userId: number; merchantId: number | null },
    given: { merchant_id?: number | undefined; user_id?: number | undefined },
  ): AgreementParty => {
    onlyOwn(given.user_id, session.userId, errorCodes.userNotFound);
    onlyOwn(given.merchant_id, session.merchantId, errorCodes.merchantNotFound);
    return { userId: session.userId, merchantId: session.merchantId };
  };

  const findOne = async (party: AgreementParty, agreementId: number) => {
    const [agreement] = await findAgreements(app.db, party, { agreementId }, app.clock());
    if (!agreement) throw refuse(404, errorCodes.agreementNotFound);
    return agreement;
  };

  app.post(
    '/api/agreement/agreement-list',
    {
      config: {
        operation: { operationId: 'listAgreements', summary: 'List the agreements to accept', tag: 'agreements' },
      },
      schema: { body: agreementListRequest, response: { 200: agreementListResponse } },
    },
    async (request) => {
      const party = partyOf(signedIn(request), request.body);
      return {
        response: 'success' as const,
        agreements: await findAgreements(app.db, party, request.body, app.clock()),
      };
    },
  );

  app.get(
    '/api/agreement/agreement-lookup',
    {
      config: {
        operation: { operationId: 'lookupAgreement', summary: 'Get one agreement', tag: 'agreements', errors: [404] },
      },
      schema: { querystring: lookupQuery, response: { 200: agreementLookupResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      return { response: 'success' as const, agreement: await findOne(session, request.query.id) };
    },
  );

  app.post(
    '/api/agreement/update-agreement',
    {
      config: {
        operation: {
          operationId: 'answerAgreement',
          summary: 'Accept or decline an agreement',
          tag: 'agreements',
          errors: [404],
        },
      },
      schema: { body: updateAgreementRequest, response: { 200: updateAgreementResponse } },
    },
    async (request) => {
      const party = partyOf(signedIn(request), request.body);
      const agreement = await findOne(party, request.body.agreement_id);
      if (agreement.audience === 'merchant') {
        const membership =
          party.merchantId === null ? undefined : await findMembership(app.db, party.userId, party.merchantId);
        if (!membership?.perms.includes('MANAGE_AGREEMENTS')) throw refuse(403, errorCodes.notAuthorized);
      }
      const answer = request.body.agreed_to === true ? 'accept' : 'skip';
      const now = app.clock();
      checkAnswer(agreement, answer, now);
      await recordResponse(app.db, agreement, party, answer, now);
      return { response: 'success' as const, agreement: await findOne(party, agreement.agreement_id) };
    },
  );

  return Promise.resolve();
};
