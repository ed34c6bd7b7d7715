import { randomBytes } from 'node:crypto';
import type { BusinessRegistration, PersonalRegistration } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { openEmailSecrets } from '@peeks/jobs';
import type { Kysely } from 'kysely';
import { demoBusiness } from '../demo-data.ts';

/** A fresh, valid personal sign-up; override any field. */
export function personalSignUp(
  overrides: Partial<Record<keyof PersonalRegistration, unknown>> = {},
): Record<string, unknown> {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user.${tag}@example.com`,
    password: 'Secret12',
    confirm_password: 'Secret12',
    birthday: '15-06-1990',
    country: 'CA',
    termsAccepted: 1,
    ...overrides,
  };
}

/** A fresh, valid business sign-up (the demo merchant's business, renamed); override any field (and `address` as a whole). */
export function businessSignUp(
  overrides: Partial<Record<keyof BusinessRegistration, unknown>> = {},
): Record<string, unknown> {
  return { ...personalSignUp(), ...demoBusiness, name: 'Maple Coffee', dba: 'Maple Coffee Ltd', ...overrides };
}

/** The recovery code of the latest e-mail queued for `recipient`, opened as the e-mail worker opens it; null if none. */
export async function queuedRecoveryCode(db: Kysely<Database>, recipient: string): Promise<string | null> {
  const row = await db
    .selectFrom('email_outbox')
    .select('payload')
    .where('recipient', '=', recipient)
    .where('template', '=', 'password-recovery-code')
    .orderBy('email_id', 'desc')
    .executeTakeFirst();
  if (!row) return null;
  const opened = await openEmailSecrets(db, row.payload as Record<string, unknown>);
  return typeof opened.recovery_code === 'string' ? opened.recovery_code : null;
}
