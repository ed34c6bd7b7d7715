import { errorCodes, type AddPayMethodRequest, type PaymentMethod } from '@peeks/contracts';
import type { Database, PaymentMethodsTable } from '@peeks/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';

const UNIQUE_VIOLATION = '23505';

export const notFound = (field = 'paymentMethodId') => refuse(404, errorCodes.paymentMethodNotFound, { field });

type Row = Selectable<PaymentMethodsTable>;
type CardOnFile = { brand: string; mask: string };

/** The last four characters behind stars: a list never shows a whole account number. */
const masked = (accountNo: string) => `${'*'.repeat(Math.max(accountNo.length - 4, 0))}${accountNo.slice(-4)}`;

/** What the spec's Payment method shows (§3); a card's token and an account's full number stay inside. */
function toPaymentMethod(row: Row): PaymentMethod {
  const details = row.type_specific;
  const byType = {
    CC: () => {
      const shown = Object.fromEntries(Object.entries(details).filter(([key]) => key !== 'token'));
      return {
        brand: String(details.card_brand),
        number: String(details.card_mask),
        icon: String(details.card_brand),
        typeSpecific: shown,
      };
    },
    CHQ: () => ({
      brand: 'Bank Account',
      number: masked(String(details.account_no)),
      icon: 'bank',
      typeSpecific: { ...details, account_no: masked(String(details.account_no)) },
    }),
    WIRE: () => {
      const instructions = details.instructions as Record<string, unknown>;
      return {
        brand: 'WIRE Account',
        number: masked(String(details.account_no)),
        icon: 'wire',
        typeSpecific: {
          account_no: masked(String(details.account_no)),
          instructions: { ...instructions, account_no: masked(String(instructions.account_no)) },
        },
      };
    },
  }[row.type]();
  return {
    payment_method_id: row.payment_method_id,
    paymentMethodId: row.payment_method_id,
    type: row.type,
    state: row.state,
    validated: row.validated,
    entry_date: row.entry_date.toISOString(),
    is_default: row.is_default,
    selected: row.is_default,
    brand: byType.brand,
    number: byType.number,
    icon: byType.icon,
    billing_address: row.billing_address,
    shipping_address: row.shipping_address,
    type_specific: byType.typeSpecific,
  };
}

const live = (db: Kysely<Database> | Transaction<Database>, userId: number) =>
  db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('state', '=', 'E');

/** The Payment Methods page (§4): the user's enabled, validated cards, bank and wire accounts, oldest first. */
export async function listPaymentMethods(db: Kysely<Database>, userId: number): Promise<PaymentMethod[]> {
  const rows = await live(db, userId)
    .where('validated', '=', 'V')
    .where('type', 'in', ['CC', 'CHQ', 'WIRE'])
    .orderBy('payment_method_id')
    .execute();
  return rows.map(toPaymentMethod);
}

/** A live method of the user's, with what charging or paying out to it needs; undefined for anyone else's id. */
export function findPaymentMethod(db: Kysely<Database>, userId: number, paymentMethodId: number) {
  return live(db, userId).where('payment_method_id', '=', paymentMethodId).executeTakeFirst();
}

/** A card's processor token, kept for charges and never shown. */
export const cardTokenOf = (row: Row) => String(row.type_specific.token);

/** What is stored for a new method, and what makes it the same as one the user has already. */
function storedFields(
  input: AddPayMethodRequest,
  card: CardOnFile | null,
): { typeSpecific: Record<string, unknown>; fingerprint: string } {
  switch (input.type) {
    case 'CC': {
      const { token, token_type, cardholder_name, card_expiry } = input.type_specific;
      if (!card) throw new Error('a card needs its processor record');
      return {
        typeSpecific: { token, token_type, cardholder_name, card_expiry, card_brand: card.brand, card_mask: card.mask },
        fingerprint: `CC:${token}`,
      };
    }
    case 'CHQ': {
      const details = input.type_specific;
      const bank =
        input.billing_address.country === 'CA'
          ? { transit_no: details.transit_no, institution_no: details.institution_no }
          : { routing_no: details.routing_no, account_type: details.account_type };
      const fields = { account_no: details.account_no, cardholder_name: details.cardholder_name ?? null, ...bank };
      return {
        typeSpecific: fields,
        fingerprint: `CHQ:${input.billing_address.country}:${Object.values(bank).join(':')}:${details.account_no}`,
      };
    }
    case 'WIRE': {
      const { account_no, instructions } = input.type_specific;
      return {
        typeSpecific: { account_no, instructions },
        fingerprint: `WIRE:${instructions.bank_swift_code}:${instructions.iban_no}:${account_no}`,
      };
    }
  }
}

/** Only one method is changed at a time per user: the default moves under the user's row lock. */
async function asUser<T>(
  db: Kysely<Database>,
  userId: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('user_id').where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    return work(trx);
  });
}

/**
 * A new method, enabled and validated. A card or bank account becomes the
 * default when the user has none; a wire account never does (§4). The same
 * card token or account again is 409 with 10503.
 */
export async function addPaymentMethod(
  db: Kysely<Database>,
  userId: number,
  input: AddPayMethodRequest,
  card: CardOnFile | null,
  now: Date,
): Promise<PaymentMethod> {
  const { typeSpecific, fingerprint } = storedFields(input, card);
  try {
    const row = await asUser(db, userId, async (trx) => {
      const hasDefault = (await live(trx, userId).where('is_default', '=', true).executeTakeFirst()) !== undefined;
      return trx
        .insertInto('payment_methods')
        .values({
          user_id: userId,
          type: input.type,
          state: 'E',
          validated: 'V',
          is_default: input.type !== 'WIRE' && !hasDefault,
          fingerprint,
          billing_address: JSON.stringify(input.billing_address),
          shipping_address: input.shipping_address ? JSON.stringify(input.shipping_address) : null,
          type_specific: JSON.stringify(typeSpecific),
          entry_date: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return toPaymentMethod(row);
  } catch (error) {
    const duplicate =
      typeof error === 'object' &&
      error !== null &&
      'code' in error &&
      error.code === UNIQUE_VIOLATION &&
      'constraint' in error &&
      error.constraint === 'payment_methods_fingerprint';
    throw duplicate ? refuse(409, errorCodes.paymentMethodExists, { field: 'type_specific' }) : error;
  }
}

/** Makes the method the user's one default. Un-marking the default is refused: exactly one stays default. */
export async function updatePaymentMethod(
  db: Kysely<Database>,
  userId: number,
  paymentMethodId: number,
  makeDefault: boolean,
  now: Date,
): Promise<PaymentMethod> {
  const row = await asUser(db, userId, async (trx) => {
    const method = await live(trx, userId).where('payment_method_id', '=', paymentMethodId).executeTakeFirst();
    if (!method) throw notFound();
    if (!makeDefault) {
      if (method.is_default) throw refuse(422, errorCodes.defaultPaymentMethodNeeded, { field: 'make_default' });
      return method;
    }
    await trx
      .updateTable('payment_methods')
      .set({ is_default: false, updated_at: now })
      .where('user_id', '=', userId)
      .where('is_default', '=', true)
      .execute();
    return trx
      .updateTable('payment_methods')
      .set({ is_default: true, updated_at: now })
      .where('payment_method_id', '=', method.payment_method_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toPaymentMethod(row);
}

/**
 * Deletes the method from the list (the row stays, state 'D', for the
 * transactions that name it). A deleted default hands over to the oldest
 * card or bank account left.
 */
export async function deletePaymentMethod(
  db: Kysely<Database>,
  userId: number,
  paymentMethodId: number,
  now: Date,
): Promise<void> {
  await asUser(db, userId, async (trx) => {
    const method = await live(trx, userId).where('payment_method_id', '=', paymentMethodId).executeTakeFirst();
    if (!method) throw notFound();
    await trx
      .updateTable('payment_methods')
      .set({ state: 'D', is_default: false, updated_at: now })
      .where('payment_method_id', '=', method.payment_method_id)
      .execute();
    if (!method.is_default) return;
    const heir = await live(trx, userId)
      .where('type', '!=', 'WIRE')
      .orderBy('payment_method_id')
      .select('payment_method_id as heir_id')
      .executeTakeFirst();
    if (heir)
      await trx
        .updateTable('payment_methods')
        .set({ is_default: true, updated_at: now })
        .where('payment_method_id', '=', heir.heir_id)
        .execute();
  });
}
