import {
  errorCodes,
  type CreateTerminalRequest,
  type MerchantTerminal,
  type UpdateMerchantRequest,
} from '@peeks/contracts';
import type { Database, MerchantTerminalsTable } from '@peeks/db';
import type { Kysely, Selectable } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { supportAndContactColumns } from '../accounts/index.ts';

const UNIQUE_VIOLATION = '23505';

/** The editable part of the merchant (spec §2, Merchant Details); name and DBA are not in it. */
export async function updateMerchant(
  db: Kysely<Database>,
  merchantId: number,
  input: UpdateMerchantRequest,
  now: Date,
): Promise<void> {
  await db
    .updateTable('merchants')
    .set({
      website: input.website,
      address1: input.address.address1,
      address2: input.address.address2,
      ...supportAndContactColumns(input),
      updated_at: now,
    })
    .where('merchant_id', '=', merchantId)
    .execute();
}

export function toTerminal(row: Selectable<MerchantTerminalsTable>): MerchantTerminal {
  return { ...row, entry_date: row.entry_date.toISOString() };
}

export async function listTerminals(db: Kysely<Database>, merchantId: number): Promise<MerchantTerminal[]> {
  const rows = await db
    .selectFrom('merchant_terminals')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('merchant_terminal_id')
    .execute();
  return rows.map(toTerminal);
}

/** A terminal id the merchant already has is 409, also when two requests race for it. */
function asTaken(error: unknown): unknown {
  const taken = typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
  return taken ? refuse(409, errorCodes.terminalIdTaken, { field: 'terminal_id' }) : error;
}

type TerminalFields = Pick<CreateTerminalRequest, 'terminal_id' | 'comment' | 'registration_code'>;

export async function createTerminal(
  db: Kysely<Database>,
  merchantId: number,
  input: TerminalFields,
  now: Date,
): Promise<MerchantTerminal> {
  try {
    const row = await db
      .insertInto('merchant_terminals')
      .values({
        merchant_id: merchantId,
        terminal_id: input.terminal_id,
        comment: input.comment,
        registration_code: input.registration_code,
        entry_date: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTerminal(row);
  } catch (error) {
    throw asTaken(error);
  }
}

/** The merchant's own terminal, changed; undefined when the merchant has no such terminal. */
export async function updateTerminal(
  db: Kysely<Database>,
  merchantId: number,
  terminalId: number,
  input: TerminalFields,
): Promise<MerchantTerminal | undefined> {
  try {
    const row = await db
      .updateTable('merchant_terminals')
      .set({ terminal_id: input.terminal_id, comment: input.comment, registration_code: input.registration_code })
      .where('merchant_terminal_id', '=', terminalId)
      .where('merchant_id', '=', merchantId)
      .returningAll()
      .executeTakeFirst();
    return row && toTerminal(row);
  } catch (error) {
    throw asTaken(error);
  }
}

/** True when the merchant had that terminal. */
export async function deleteTerminal(db: Kysely<Database>, merchantId: number, terminalId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('merchant_terminals')
    .where('merchant_terminal_id', '=', terminalId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export function listCategories(db: Kysely<Database>) {
  return db.selectFrom('categories').select(['category_id', 'name']).orderBy('category_id').execute();
}

/** The category's sub categories; undefined when there is no such category. */
export async function listSubCategories(db: Kysely<Database>, categoryId: number) {
  const category = await db
    .selectFrom('categories')
    .select('category_id')
    .where('category_id', '=', categoryId)
    .executeTakeFirst();
  if (!category) return undefined;
  return db
    .selectFrom('sub_categories')
    .select(['sub_category_id', 'category_id', 'name'])
    .where('category_id', '=', categoryId)
    .orderBy('sub_category_id')
    .execute();
}
