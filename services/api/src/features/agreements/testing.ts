import type { TestApp } from '../../testing/app.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

async function userAgreement(subject: TestApp): Promise<number> {
  const found = await subject.database.db
    .selectFrom('agreements')
    .select('agreement_id')
    .where('audience', '=', 'user')
    .orderBy('agreement_id')
    .executeTakeFirstOrThrow();
  return found.agreement_id;
}

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/agreement/agreement-list': sample((owner) => body({ user_id: owner.user.user_id }), {
    ...ownRecord,
    optional: ['user_id'],
    bodyOptional: true,
  }),
  'GET /api/agreement/agreement-lookup': sample(async (_owner, subject) => query({ id: await userAgreement(subject) })),
  'POST /api/agreement/update-agreement': sample(
    async (owner, subject) =>
      body({ user_id: owner.user.user_id, agreement_id: await userAgreement(subject), agreed_to: true }),
    {
      ...ownRecord,
      optional: ['user_id'],
    },
  ),
};
