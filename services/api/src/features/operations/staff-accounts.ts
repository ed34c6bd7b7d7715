import { personalRegistration, type PersonalRegistration } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { randomInt } from 'node:crypto';
import { createPersonalUser, hashPassword } from '../accounts/index.ts';
import { makeFinanceOperator } from './operator.ts';

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/**
 * A random password the registration rules accept (12 characters with a
 * lowercase and an uppercase letter and a digit), without the look-alikes
 * l, I, O, 0 and 1, since a person copies it from a console once.
 */
export function generatedPassword(): string {
  const pick = (alphabet: string) => alphabet.charAt(randomInt(alphabet.length));
  const characters = [
    pick(LOWER),
    pick(UPPER),
    pick(DIGITS),
    ...Array.from({ length: 9 }, () => pick(LOWER + UPPER + DIGITS)),
  ];
  for (let index = characters.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other] ?? '', characters[index] ?? ''];
  }
  return characters.join('');
}

/**
 * The sign-up of a staff or demo account that nobody types into a form,
 * with a generated password; the registration rules still judge its
 * username and e-mail. The birthday and country are placeholders the person
 * can change in their profile.
 */
export function staffSignUp(username: string, email: string) {
  const password = generatedPassword();
  return personalRegistration.safeParse({
    username,
    email,
    password,
    confirm_password: password,
    birthday: '01-01-1970',
    country: 'CA',
    termsAccepted: 1,
  });
}

/** A personal account for `signUp`, its password stored only as a hash. */
export async function createStaffUser(db: Kysely<Database>, signUp: PersonalRegistration, now: Date): Promise<number> {
  return createPersonalUser(db, signUp, await hashPassword(signUp.password), now);
}

export type OperatorOutcome =
  | { outcome: 'created'; userId: number; password: string }
  | { outcome: 'promoted'; userId: number }
  | { outcome: 'refused'; reason: string };

/**
 * `npm run operator:create`: makes the user with this username (and this
 * e-mail, so that a typo cannot promote someone else) a finance operator,
 * or creates one with a one-time password to print, stored only hashed.
 */
export async function createFinanceOperator(
  db: Kysely<Database>,
  username: string,
  email: string,
  now: Date,
): Promise<OperatorOutcome> {
  const existing = await db
    .selectFrom('users')
    .select(['user_id', 'email'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  if (existing) {
    if (existing.email.toLowerCase() !== email.toLowerCase())
      return { outcome: 'refused', reason: `user ${username} exists with another e-mail` };
    await makeFinanceOperator(db, existing.user_id, now);
    return { outcome: 'promoted', userId: existing.user_id };
  }
  const signUp = staffSignUp(username, email);
  if (!signUp.success)
    return {
      outcome: 'refused',
      reason: signUp.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    };
  const userId = await createStaffUser(db, signUp.data, now);
  await makeFinanceOperator(db, userId, now);
  return { outcome: 'created', userId, password: signUp.data.password };
}
