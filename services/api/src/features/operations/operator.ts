import { errorCodes, FINANCE_OPERATOR_ROLE } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { userOwnerId } from '@peeks/ledger';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';

/**
 * An onRequest hook for the operations console: 401 signed out, 403 for a
 * signed-in user who is not a finance operator, both before the input is
 * read. The role is read at every request, so taking it away takes effect
 * at once, without waiting for the operator's session to end.
 */
export async function requireFinanceOperator(request: FastifyRequest): Promise<void> {
  const { userId } = signedIn(request);
  const user = await request.server.db
    .selectFrom('users')
    .select('role')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (user?.role !== FINANCE_OPERATOR_ROLE) throw refuse(403, errorCodes.financeOperatorOnly);
}

/** The operator's name in the ledger (clearedBy, operatorId, the events' actor): their user's owner id. */
export function operatorOf(request: FastifyRequest): string {
  return userOwnerId(signedIn(request).userId);
}

/** Makes a user a finance operator; false when there is no such user. Not an HTTP route: see operator-cli.ts. */
export async function makeFinanceOperator(db: Kysely<Database>, userId: number, now: Date): Promise<boolean> {
  const updated = await db
    .updateTable('users')
    .set({ role: FINANCE_OPERATOR_ROLE, updated_at: now })
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  return updated !== undefined;
}
