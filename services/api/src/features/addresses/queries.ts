import type { AddAddressRequest, Address, UpdateAddressRequest } from '@peeks/contracts';
import type { AddressesTable, Database } from '@peeks/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { choosePrimary } from './primary.ts';

type AddressRow = Selectable<AddressesTable>;

const toAddress = (row: AddressRow): Address => ({
  address_id: row.address_id,
  user_id: row.user_id,
  name_first: row.name_first,
  name_last: row.name_last,
  address1: row.address1,
  address2: row.address2,
  city: row.city,
  province_state: row.province_state,
  postal_code: row.postal_code,
  country: row.country,
  is_primary: row.is_primary,
});

const fieldsOf = (input: AddAddressRequest) => ({
  name_first: input.name_first,
  name_last: input.name_last,
  address1: input.address1,
  address2: input.address2 || null,
  city: input.city,
  province_state: input.province_state,
  postal_code: input.postal_code,
  country: input.country,
});

/** The user's addresses, the primary first, then oldest first. */
export async function listAddresses(db: Kysely<Database>, userId: number, page: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('addresses')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('is_primary', 'desc')
      .orderBy('address_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('addresses')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { address: rows.map(toAddress), total: Number(count.total) };
}

/**
 * Runs `work` with the user's row locked, so two requests changing the same
 * user's addresses at once cannot both leave it without a primary (or, past
 * the unique index, fail on two).
 */
function forUser<T>(
  db: Kysely<Database>,
  userId: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('user_id').where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    return work(trx);
  });
}

async function unmarkPrimary(trx: Transaction<Database>, userId: number, now: Date, except?: number) {
  let query = trx
    .updateTable('addresses')
    .set({ is_primary: false, updated_at: now })
    .where('user_id', '=', userId)
    .where('is_primary', '=', true);
  if (except !== undefined) query = query.where('address_id', '!=', except);
  await query.execute();
}

export function addAddress(
  db: Kysely<Database>,
  userId: number,
  input: AddAddressRequest,
  now: Date,
): Promise<Address> {
  return forUser(db, userId, async (trx) => {
    const existing = await trx
      .selectFrom('addresses')
      .select('address_id')
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    const isPrimary = choosePrimary({
      asked: input.is_primary,
      wasPrimary: false,
      othersExist: existing !== undefined,
    });
    if (isPrimary) await unmarkPrimary(trx, userId, now);
    const row = await trx
      .insertInto('addresses')
      .values({ user_id: userId, ...fieldsOf(input), is_primary: isPrimary, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAddress(row);
  });
}

/** The updated address, or undefined when the user has none with that id. */
export function updateAddress(
  db: Kysely<Database>,
  userId: number,
  input: UpdateAddressRequest,
  now: Date,
): Promise<Address | undefined> {
  return forUser(db, userId, async (trx) => {
    const current = await trx
      .selectFrom('addresses')
      .select('is_primary')
      .where('user_id', '=', userId)
      .where('address_id', '=', input.address_id)
      .executeTakeFirst();
    if (!current) return undefined;
    const isPrimary = choosePrimary({ asked: input.is_primary, wasPrimary: current.is_primary, othersExist: true });
    if (isPrimary) await unmarkPrimary(trx, userId, now, input.address_id);
    const row = await trx
      .updateTable('addresses')
      .set({ ...fieldsOf(input), is_primary: isPrimary, updated_at: now })
      .where('user_id', '=', userId)
      .where('address_id', '=', input.address_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAddress(row);
  });
}

/** False when the user has no address with that id. Deleting the primary makes the oldest remaining one primary. */
export function deleteAddress(db: Kysely<Database>, userId: number, addressId: number, now: Date): Promise<boolean> {
  return forUser(db, userId, async (trx) => {
    const deleted = await trx
      .deleteFrom('addresses')
      .where('user_id', '=', userId)
      .where('address_id', '=', addressId)
      .returning('is_primary')
      .executeTakeFirst();
    if (!deleted) return false;
    if (deleted.is_primary) {
      const successor = await trx
        .selectFrom('addresses')
        .select('address_id')
        .where('user_id', '=', userId)
        .orderBy('address_id')
        .limit(1)
        .executeTakeFirst();
      if (successor)
        await trx
          .updateTable('addresses')
          .set({ is_primary: true, updated_at: now })
          .where('address_id', '=', successor.address_id)
          .execute();
    }
    return true;
  });
}
