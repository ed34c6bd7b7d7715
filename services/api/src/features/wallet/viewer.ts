import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import type { FastifyRequest } from 'fastify';
import { signedIn, type Session } from '../../plugins/sessions.ts';

/**
 * Whose money a session sees: the merchant's wallets while it acts for a
 * merchant (a business user's sales are paid there, and switch-merchant
 * checked the membership), else the user's own. Balance, lists, details,
 * coins, audit and the live feed all read through this one choice.
 */
export function viewerOwnerIdOf(session: Pick<Session, 'merchantId'> & { userId: number }): string {
  return session.merchantId === null ? userOwnerId(session.userId) : merchantOwnerId(session.merchantId);
}

/** The signed-in caller's viewing owner; 401 when no one is signed in. */
export function viewerOwnerId(request: FastifyRequest): string {
  return viewerOwnerIdOf(signedIn(request));
}
