import { errorCodes, type merchantPermissions } from '@peeks/contracts';
import type { FastifyRequest } from 'fastify';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { findMembership } from '../accounts/index.ts';

export interface ActingMerchant {
  userId: number;
  merchantId: number;
  perms: string[];
}

/**
 * The merchant the session acts for, if its user holds `permission` on it.
 * Signed out is 401; a personal user (no merchant) or one without the
 * permission is 403. Merchant screens act on this merchant and no other.
 */
export async function actingMerchant(
  request: FastifyRequest,
  permission: (typeof merchantPermissions)[number],
): Promise<ActingMerchant> {
  const session = signedIn(request);
  if (session.merchantId === null) throw refuse(403, errorCodes.notAuthorized);
  const membership = await findMembership(request.server.db, session.userId, session.merchantId);
  if (!membership?.perms.includes(permission)) throw refuse(403, errorCodes.notAuthorized);
  return { userId: session.userId, merchantId: session.merchantId, perms: membership.perms };
}

/**
 * A merchant or user id a request names, which may only be the caller's own
 * (null naming "no merchant"): any other is answered as if it did not exist.
 */
export function onlyOwn(
  given: number | null | undefined,
  own: number | null,
  notFound: Parameters<typeof refuse>[1],
): void {
  if (given !== undefined && given !== own) throw refuse(404, notFound);
}
