import { errorCodes, type SessionUser } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { startSession, type SignedInSession } from '../../plugins/sessions.ts';
import { findUser, membershipsOf } from './queries.ts';
import { toSessionUser } from './session-user.ts';

/** The Session user of a signed-in session, acting for the merchant the session has chosen. */
export async function sessionUserOf(
  db: Kysely<Database>,
  session: Pick<SignedInSession, 'userId' | 'merchantId'>,
): Promise<SessionUser> {
  const [user, memberships] = await Promise.all([findUser(db, session.userId), membershipsOf(db, session.userId)]);
  if (!user) throw refuse(401, errorCodes.notSignedIn);
  return toSessionUser(user, memberships, session.merchantId);
}

/**
 * Signs `userId` in on a new session (login and registration alike), acting
 * for the first merchant the user joined, if any.
 */
export async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number) {
  const db = request.server.db;
  const [firstMerchant] = await membershipsOf(db, userId);
  const session = await startSession(request, reply, { userId, merchantId: firstMerchant?.merchant_id ?? null });
  const user = await sessionUserOf(db, { userId, merchantId: session.merchantId });
  return { response: 'success' as const, user, csrfToken: session.csrfToken };
}
