import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { countryCode, parseDayMonthYear, pastDate, positiveId, say, text } from './fields.ts';
import { sessionUser } from './sessions.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** Document types (spec §9). */
export const documentTypes = ['driver', 'passport', 'citizenship', 'identity'] as const;

/** Upper bounds of the uploaded files; the spec gives none, these keep a photo a photo. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * An id as a multipart form sends it: decimal text. JSON calls send numbers;
 * a form field is always a string, so it is read here and then held to the
 * same rule as every other id.
 */
const formId = (label: string) =>
  z
    .string({ error: say.valid(label) })
    .trim()
    .regex(/^\d{1,16}$/, say.valid(label))
    .transform(Number)
    .pipe(positiveId(say.valid(label)));

/** A real calendar day typed "DD-MM-YYYY" (spec §5): 'Please enter X' when empty, else 'Please enter valid X'. */
const calendarDate = (label: string) =>
  text(label, { max: 10 }).refine((value) => parseDayMonthYear(value) !== null, say.valid(label));

/**
 * The text fields of POST /api/user/user-upload-avatar (multipart, beside
 * `file`). `user_id` is the signed-in user's own; any other is 404.
 * Unknown fields are refused rather than ignored: a form carries nothing else.
 */
export const uploadAvatarFields = z.strictObject({ user_id: formId('user_id') }, invalidArguments);

/**
 * The text fields of POST /api/user/upload-document (spec §5 "Document
 * upload"): type, issuing country and file required; number 2 to 64; both
 * dates required and valid "DD-MM-YYYY". An issue date in the future is not a
 * valid one; the expiry must come after the issue date (catalogue 4092).
 * `merchant_id`, when given, is the session's merchant; any other is 404.
 */
export const uploadDocumentFields = z
  .strictObject(
    {
      merchant_id: formId('merchant_id').optional(),
      user_id: formId('user_id'),
      document_type: z.enum(documentTypes, { error: say.select('Document Type') }),
      document_number: text('Document Number', { min: 2, max: 64 }),
      issuing_country: countryCode('Issuing Country'),
      issue_date: pastDate('Issue Date'),
      expiry_date: calendarDate('Expiry Date'),
    },
    invalidArguments,
  )
  .superRefine((value, context) => {
    const issued = parseDayMonthYear(value.issue_date);
    const expires = parseDayMonthYear(value.expiry_date);
    if (issued && expires && dayNumber(expires) <= dayNumber(issued)) {
      context.addIssue({
        code: 'custom',
        path: ['expiry_date'],
        message: errorCatalogue[errorCodes.expiryBeforeIssue],
        params: { code: errorCodes.expiryBeforeIssue },
      });
    }
  });

const dayNumber = (date: { day: number; month: number; year: number }) =>
  date.year * 10_000 + date.month * 100 + date.day;

export const uploadAvatarResponse = successEnvelope({ avatar: z.string(), user: sessionUser, message: z.string() });

/** What the owner sees of a stored document: never the image itself. */
export const documentSummary = z.object({
  document_id: z.number().int(),
  merchant_id: z.number().int().nullable(),
  user_id: z.number().int(),
  document_type: z.enum(documentTypes),
  document_number: z.string(),
  issuing_country: z.string(),
  /** "DD-MM-YYYY", as the form typed it. */
  issue_date: z.string(),
  expiry_date: z.string(),
  content_type: z.enum(['image/jpeg', 'image/png']),
  byte_size: z.number().int(),
  uploaded_at: z.string(),
});

export const uploadDocumentResponse = successEnvelope({ document: documentSummary, message: z.string() });
export const documentListResponse = successEnvelope({ documents: z.array(documentSummary) });

export type UploadDocumentFields = z.infer<typeof uploadDocumentFields>;
export type DocumentSummary = z.infer<typeof documentSummary>;
