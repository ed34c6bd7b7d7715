import { createHash } from 'node:crypto';
import type { DocumentSummary, UploadDocumentFields } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { dayMonthYear } from '../accounts/index.ts';
import { parseDayMonthYear, dayMonthYearToIso } from '@peeks/contracts';

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Where an avatar version is served; the hash makes each upload a new URL, so browsers may cache one for good. */
export const avatarUrl = (userId: number, sha256: string) => `/api/user/avatar/${String(userId)}/${sha256}`;

/** The user's avatar, replacing any earlier one, and the user's `avatar` field pointing at it, together. */
export async function saveAvatar(db: Kysely<Database>, userId: number, jpeg: Buffer, now: Date): Promise<string> {
  const sha256 = sha256Of(jpeg);
  const url = avatarUrl(userId, sha256);
  await db.transaction().execute(async (trx) => {
    const row = { user_id: userId, content: jpeg, content_type: 'image/jpeg' as const, sha256, uploaded_at: now };
    await trx
      .insertInto('user_avatars')
      .values(row)
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ content: jpeg, sha256, uploaded_at: now }))
      .execute();
    await trx.updateTable('users').set({ avatar: url, updated_at: now }).where('user_id', '=', userId).execute();
  });
  return url;
}

/** The avatar bytes if `sha256` names the user's current one; an old version's URL finds nothing. */
export function findAvatar(db: Kysely<Database>, userId: number, sha256: string) {
  return db
    .selectFrom('user_avatars')
    .select(['content', 'content_type', 'sha256'])
    .where('user_id', '=', userId)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
}

const summaryColumns = [
  'document_id',
  'merchant_id',
  'user_id',
  'document_type',
  'document_number',
  'issuing_country',
  'issue_date',
  'expiry_date',
  'content_type',
  'uploaded_at',
] as const;

type SummaryRow = Pick<Database['user_documents'], Exclude<(typeof summaryColumns)[number], 'document_id'>> & {
  document_id: number;
  byte_size: number;
};

function toSummary(row: SummaryRow): DocumentSummary {
  return {
    ...row,
    document_type: row.document_type as DocumentSummary['document_type'],
    issue_date: dayMonthYear(row.issue_date),
    expiry_date: dayMonthYear(row.expiry_date),
    uploaded_at: row.uploaded_at.toISOString(),
  };
}

/** "DD-MM-YYYY" (already validated by the contract) as Postgres's date text. */
const isoDate = (value: string) => {
  const date = parseDayMonthYear(value);
  if (!date) throw new RangeError(`not a DD-MM-YYYY date: ${value}`);
  return dayMonthYearToIso(date);
};

export async function insertDocument(
  db: Kysely<Database>,
  owner: { userId: number; merchantId: number | null },
  fields: UploadDocumentFields,
  image: { bytes: Buffer; contentType: 'image/jpeg' | 'image/png' },
  now: Date,
): Promise<DocumentSummary> {
  const row = await db
    .insertInto('user_documents')
    .values({
      user_id: owner.userId,
      merchant_id: owner.merchantId,
      document_type: fields.document_type,
      document_number: fields.document_number,
      issuing_country: fields.issuing_country,
      issue_date: isoDate(fields.issue_date),
      expiry_date: isoDate(fields.expiry_date),
      content: image.bytes,
      content_type: image.contentType,
      sha256: sha256Of(image.bytes),
      uploaded_at: now,
    })
    .returning([...summaryColumns, (eb) => eb.fn<number>('octet_length', ['content']).as('byte_size')])
    .executeTakeFirstOrThrow();
  return toSummary(row);
}

/** The user's documents, oldest first, without their images. */
export async function listDocuments(db: Kysely<Database>, userId: number): Promise<DocumentSummary[]> {
  const rows = await db
    .selectFrom('user_documents')
    .select([...summaryColumns, (eb) => eb.fn<number>('octet_length', ['content']).as('byte_size')])
    .where('user_id', '=', userId)
    .orderBy('document_id')
    .execute();
  return rows.map(toSummary);
}
