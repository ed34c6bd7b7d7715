import {
  dayMonthYearToIso,
  errorCatalogue,
  errorCodes,
  merchantPermissions,
  parseDayMonthYear,
  type supportAndContactFields,
  userPermissions,
  type ApiErrorItem,
  type BusinessRegistration,
  type ErrorCode,
  type PersonalRegistration,
} from '@peeks/contracts';
import type { Database, MerchantsTable, UsersTable } from '@peeks/db';
import { merchantOwnerId, userOwnerId } from '@peeks/ledger';
import { openWallets } from '@peeks/ledger-store';
import type { Kysely, Selectable } from 'kysely';
import { ApiError } from '../../plugins/error-envelope.ts';

/** The merchant's Support and contact fields, as their columns; registration and Merchant edit both write them. */
export function supportAndContactColumns(input: Pick<BusinessRegistration, keyof typeof supportAndContactFields>) {
  return {
    support_url: input.support_url,
    support_phone: input.support_phone,
    support_phone_region: input.support_phone_region,
    support_email: input.support_email,
    contact_name: input.contact_name,
    contact_email: input.contact_email,
    contact_phone: input.contact_phone,
    contact_phone_region: input.contact_phone_region,
  };
}

export type UserRow = Selectable<UsersTable>;
export type MerchantRow = Selectable<MerchantsTable>;

/** "DD-MM-YYYY", already validated by the request schema, as a Postgres date. */
function isoDate(dayMonthYear: string): string {
  const date = parseDayMonthYear(dayMonthYear);
  if (!date) throw new Error(`not a validated date: ${dayMonthYear}`);
  return dayMonthYearToIso(date);
}

const UNIQUE_VIOLATION = '23505';
const takenUsername = { code: errorCodes.usernameTaken, field: 'username' } as const;
const takenEmail = { code: errorCodes.emailTaken, field: 'email' } as const;

function conflict(problems: readonly { code: ErrorCode; field: string }[]): ApiError {
  const errors: ApiErrorItem[] = problems.map(({ code, field }) => ({ code, field, message: errorCatalogue[code] }));
  return new ApiError(409, errors.map((error) => error.message).join('. '), errors);
}

/** Both problems at once when both the username and the e-mail are taken, whatever their case. */
async function refuseTaken(db: Kysely<Database>, username: string, email: string): Promise<void> {
  const rows = await db
    .selectFrom('users')
    .select((eb) => [
      eb(eb.fn('lower', ['username']), '=', username.toLowerCase()).as('username_taken'),
      eb(eb.fn('lower', ['email']), '=', email.toLowerCase()).as('email_taken'),
    ])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['username']), '=', username.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      ]),
    )
    .execute();
  const problems = [
    ...(rows.some((row) => row.username_taken) ? [takenUsername] : []),
    ...(rows.some((row) => row.email_taken) ? [takenEmail] : []),
  ];
  if (problems.length > 0) throw conflict(problems);
}

/** A registration that lost a race for its username or e-mail gets the same answer as one that came second. */
function asConflict(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== UNIQUE_VIOLATION)
    return error;
  const constraint = 'constraint' in error ? error.constraint : undefined;
  if (constraint === 'users_username_key') return conflict([takenUsername]);
  if (constraint === 'users_email_key') return conflict([takenEmail]);
  return error;
}

function newUser(input: PersonalRegistration, userType: UsersTable['user_type'], passwordHash: string, now: Date) {
  return {
    username: input.username,
    email: input.email,
    password_hash: passwordHash,
    user_type: userType,
    perms: [...userPermissions],
    birthday: isoDate(input.birthday),
    country: input.country,
    // The spec's cash currencies are USD and CAD; a Canadian account keeps CAD.
    currency: input.country === 'CA' ? 'CAD' : 'USD',
    // The schema takes only 1: terms must be accepted to register.
    terms_accepted: true,
    fullname: null,
    avatar: null,
    gender: null,
    phone: null,
    city: null,
    province: null,
    description: null,
    created_at: now,
    updated_at: now,
  };
}

/** A personal account with its wallets; 409 with 4503/4507 under the field when the username or e-mail is taken. */
export async function createPersonalUser(
  db: Kysely<Database>,
  input: PersonalRegistration,
  passwordHash: string,
  now: Date,
): Promise<number> {
  await refuseTaken(db, input.username, input.email);
  try {
    return await db.transaction().execute(async (trx) => {
      const { user_id: userId } = await trx
        .insertInto('users')
        .values(newUser(input, 'personal', passwordHash, now))
        .returning('user_id')
        .executeTakeFirstOrThrow();
      await openWallets(trx, userOwnerId(userId), { now: () => now });
      return userId;
    });
  } catch (error) {
    throw asConflict(error);
  }
}

/**
 * A business account: the user, the merchant, and the user's membership of it
 * with every merchant permission, in one transaction.
 */
export async function createBusinessUser(
  db: Kysely<Database>,
  input: BusinessRegistration,
  passwordHash: string,
  now: Date,
): Promise<{ userId: number; merchantId: number }> {
  await refuseTaken(db, input.username, input.email);
  try {
    return await db.transaction().execute(async (trx) => {
      const { user_id: userId } = await trx
        .insertInto('users')
        .values(newUser(input, 'business', passwordHash, now))
        .returning('user_id')
        .executeTakeFirstOrThrow();
      const { address } = input;
      const { merchant_id: merchantId } = await trx
        .insertInto('merchants')
        .values({
          name: input.name,
          dba: input.dba,
          website: input.website,
          phone: input.phone,
          phone_region: input.phone_region,
          category_id: input.category_id,
          sub_category_id: input.sub_category_id,
          business_type: input.business_type,
          date_established: isoDate(input.date_established),
          monthly_sales: input.monthly_sales,
          business_number: input.business_number,
          business_country: input.business_country,
          address_email: address.email,
          address_phone: address.phone,
          address_name_first: address.name_first,
          address_name_last: address.name_last,
          address1: address.address1,
          address2: address.address2 || null,
          city: address.city,
          province_state: address.province_state,
          postal_code: address.postal_code,
          country: address.country,
          ...supportAndContactColumns(input),
          owner_citizenship: input.owner_citizenship,
          owner_dob: isoDate(input.owner_dob),
          owner_name: input.owner_name,
          owner_phone: input.owner_phone,
          owner_phone_region: input.owner_phone_region,
          owner_email: input.owner_email,
          created_at: now,
          updated_at: now,
        })
        .returning('merchant_id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('merchant_users')
        .values({ merchant_id: merchantId, user_id: userId, perms: [...merchantPermissions], created_at: now })
        .execute();
      await openWallets(trx, userOwnerId(userId), { now: () => now });
      await openWallets(trx, merchantOwnerId(merchantId), { now: () => now });
      return { userId, merchantId };
    });
  } catch (error) {
    throw asConflict(error);
  }
}

/** The account a sign-in names, by username or e-mail, whatever the letter case. */
export function findByLogin(db: Kysely<Database>, usernameOrEmail: string) {
  const name = usernameOrEmail.toLowerCase();
  return db
    .selectFrom('users')
    .select(['user_id', 'password_hash', 'account_status', 'is_banned'])
    .where((eb) => eb.or([eb(eb.fn('lower', ['username']), '=', name), eb(eb.fn('lower', ['email']), '=', name)]))
    .executeTakeFirst();
}

export async function replacePasswordHash(
  db: Kysely<Database>,
  userId: number,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

export function findUser(db: Kysely<Database>, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Every merchant the user belongs to, the first joined first, with the user's permissions on each. */
export function membershipsOf(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('merchant_users')
    .innerJoin('merchants', 'merchants.merchant_id', 'merchant_users.merchant_id')
    .select(['merchants.merchant_id', 'merchants.name', 'merchant_users.perms'])
    .where('merchant_users.user_id', '=', userId)
    .orderBy('merchant_users.created_at')
    .orderBy('merchants.merchant_id')
    .execute();
}

/** The merchant, if the user belongs to it, with the user's permissions on it. */
export function findMembership(db: Kysely<Database>, userId: number, merchantId: number) {
  return db
    .selectFrom('merchant_users')
    .innerJoin('merchants', 'merchants.merchant_id', 'merchant_users.merchant_id')
    .selectAll('merchants')
    .select('merchant_users.perms')
    .where('merchant_users.user_id', '=', userId)
    .where('merchant_users.merchant_id', '=', merchantId)
    .executeTakeFirst();
}
