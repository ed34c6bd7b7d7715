import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import type { FastifyRequest } from 'fastify';
import { signedIn, type Session } from '../../plugins/sessions.ts';

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
