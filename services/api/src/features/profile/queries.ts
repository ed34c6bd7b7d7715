import { errorCatalogue, errorCodes, type PreferenceSection, type UpdateUserRequest } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { ApiError } from '../../plugins/error-envelope.ts';
import { transaction } from '../../plugins/after-commit.ts';
import { endOtherSessions, type SessionCache } from '../../plugins/sessions.ts';

const UNIQUE_VIOLATION = '23505';
const emailTaken = () =>
  new ApiError(409, errorCatalogue[errorCodes.emailTaken], [
    { code: errorCodes.emailTaken, field: 'email', message: errorCatalogue[errorCodes.emailTaken] },
  ]);

const isEmailConflict = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  error.code === UNIQUE_VIOLATION &&
  'constraint' in error &&
  error.constraint === 'users_email_key';

/** The User Details modal's fields; 409 with 4507 when another account has the e-mail, whatever its case. */
export async function updateUserDetails(
  db: Kysely<Database>,
  userId: number,
  details: UpdateUserRequest,
  now: Date,
): Promise<void> {
  const other = await db
    .selectFrom('users')
    .select('user_id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', details.email.toLowerCase()))
    .where('user_id', '!=', userId)
    .executeTakeFirst();
  if (other) throw emailTaken();
  try {
    await db
      .updateTable('users')
      .set({
        prefix: details.prefix ?? null,
        name_first: details.name_first,
        name_last: details.name_last,
        fullname: `${details.name_first} ${details.name_last}`,
        email: details.email,
        phone: details.phone,
        phone_region: details.phone_region,
        country: details.country,
        city: details.city || null,
        description: details.description || null,
        updated_at: now,
      })
      .where('user_id', '=', userId)
      .execute();
  } catch (error) {
    // Another account took the e-mail between the check and the update.
    throw isEmailConflict(error) ? emailTaken() : error;
  }
}

/** The new password, and every other session of the user ended, together. */
export async function changePassword(
  db: Kysely<Database>,
  sessions: SessionCache,
  userId: number,
  passwordHash: string,
  keepSession: Buffer,
  now: Date,
): Promise<void> {
  await transaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('user_id', '=', userId)
      .execute();
    await endOtherSessions(trx, sessions, userId, keepSession);
  });
}

export function storedPreferences(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('user_preferences')
    .select(['section', 'key', 'enabled'])
    .where('user_id', '=', userId)
    .execute();
}

export async function setPreference(
  db: Kysely<Database>,
  userId: number,
  preference: { section: PreferenceSection; key: string; enabled: boolean },
  now: Date,
): Promise<void> {
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, ...preference, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'section', 'key']).doUpdateSet({ enabled: preference.enabled, updated_at: now }),
    )
    .execute();
}
