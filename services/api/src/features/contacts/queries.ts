import {
  errorCodes,
  type AddRecipientRequest,
  type Contact,
  type CreateContactRequest,
  type UpdateContactRequest,
} from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';

const UNIQUE_VIOLATION = '23505';

/** 23201 under e-mail: the owner already has a contact with that address. */
const duplicate = () => refuse(409, errorCodes.contactExists, { field: 'email' });

/** A save that lost a race for the same e-mail gets the same answer as one that came second. */
function asDuplicate(error: unknown): unknown {
  const isOurs =
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === UNIQUE_VIOLATION &&
    'constraint' in error &&
    error.constraint === 'contacts_email_key';
  return isOurs ? duplicate() : error;
}

/**
 * The owner's contacts with the registered user each one's e-mail names, if
 * any (for Send A Money Transfer). Every query starts here, scoped by owner.
 */
function contactsOf(db: Kysely<Database>, ownerId: number) {
  return db
    .selectFrom('contacts')
    .leftJoin('users', (join) =>
      join.on((eb) => eb(eb.fn('lower', ['users.email']), '=', eb.fn('lower', ['contacts.email']))),
    )
    .select([
      'contacts.contact_id',
      'contacts.name_first',
      'contacts.name_last',
      'contacts.phone_region',
      'contacts.phone',
      'contacts.email',
      'contacts.address1',
      'contacts.address2',
      'contacts.city',
      'contacts.province',
      'contacts.country',
      'contacts.postal',
      'contacts.bank_name',
      'contacts.account_no',
      'users.user_id',
      'users.guser_id',
      'users.username',
      'users.fullname',
      'users.avatar',
      'users.currency',
    ])
    .where('contacts.owner_user_id', '=', ownerId);
}

type ContactRow = Awaited<ReturnType<ReturnType<typeof contactsOf>['executeTakeFirstOrThrow']>>;

const toContact = ({ phone, phone_region, ...row }: ContactRow): Contact => ({
  ...row,
  user_id: row.user_id ?? null,
  guser_id: row.guser_id ?? null,
  username: row.username ?? null,
  fullname: row.fullname ?? null,
  avatar: row.avatar ?? null,
  currency: row.currency ?? null,
  // §5 variant A: the sent phone is the dialling code plus the 10 digits.
  phone: `${phone_region}${phone}`,
  phone_region,
});

/** The Contacts grid. The user's own entry (a contact with the user's own e-mail) is hidden, as §2 says. */
export async function listContacts(db: Kysely<Database>, ownerId: number): Promise<Contact[]> {
  const rows = await contactsOf(db, ownerId)
    .where((eb) => eb.or([eb('users.user_id', 'is', null), eb('users.user_id', '!=', ownerId)]))
    .orderBy('contacts.name_first')
    .orderBy('contacts.name_last')
    .orderBy('contacts.contact_id')
    .execute();
  return rows.map(toContact);
}

export async function findContact(
  db: Kysely<Database>,
  ownerId: number,
  contactId: number,
): Promise<Contact | undefined> {
  const row = await contactsOf(db, ownerId).where('contacts.contact_id', '=', contactId).executeTakeFirst();
  return row && toContact(row);
}

const fieldsOf = (input: CreateContactRequest) => ({
  name_first: input.name_first,
  name_last: input.name_last,
  phone_region: input.phone_region,
  phone: input.phone,
  email: input.email,
  address1: input.address1,
  address2: input.address2 || null,
  city: input.city,
  province: input.province,
  country: input.country,
  postal: input.postal,
});

/** Whether the owner has another contact (not `exceptId`) with this e-mail, whatever its case. */
async function emailTaken(db: Kysely<Database>, ownerId: number, email: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('contacts')
    .select('contact_id')
    .where('owner_user_id', '=', ownerId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));
  if (exceptId !== undefined) query = query.where('contact_id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The new contact; 409 with 23201 when the owner already has one with that e-mail. */
export async function createContact(
  db: Kysely<Database>,
  ownerId: number,
  input: CreateContactRequest | AddRecipientRequest,
  now: Date,
): Promise<Contact> {
  if (await emailTaken(db, ownerId, input.email)) throw duplicate();
  const banking =
    'bank_name' in input
      ? { bank_name: input.bank_name, institution_no: input.institution_no, account_no: input.account_no }
      : {};
  try {
    const { contact_id } = await db
      .insertInto('contacts')
      .values({ owner_user_id: ownerId, ...fieldsOf(input), ...banking, created_at: now, updated_at: now })
      .returning('contact_id')
      .executeTakeFirstOrThrow();
    const created = await findContact(db, ownerId, contact_id);
    if (!created) throw new Error(`contact ${contact_id} vanished after insert`);
    return created;
  } catch (error) {
    throw asDuplicate(error);
  }
}

/** The updated contact, or undefined when the owner has none with that id; 23201 as for create. */
export async function updateContact(
  db: Kysely<Database>,
  ownerId: number,
  input: UpdateContactRequest,
  now: Date,
): Promise<Contact | undefined> {
  if (await emailTaken(db, ownerId, input.email, input.contact_id)) throw duplicate();
  try {
    const updated = await db
      .updateTable('contacts')
      .set({ ...fieldsOf(input), updated_at: now })
      .where('owner_user_id', '=', ownerId)
      .where('contact_id', '=', input.contact_id)
      .returning('contact_id')
      .executeTakeFirst();
    return updated && (await findContact(db, ownerId, updated.contact_id));
  } catch (error) {
    throw asDuplicate(error);
  }
}

/** False when the owner has no contact with that id. */
export async function deleteContact(db: Kysely<Database>, ownerId: number, contactId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('contacts')
    .where('owner_user_id', '=', ownerId)
    .where('contact_id', '=', contactId)
    .returning('contact_id')
    .executeTakeFirst();
  return deleted !== undefined;
}
