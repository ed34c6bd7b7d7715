import { errorCodes, uploadMessages, type ApiErrorItem } from '@peeks/contracts';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { InvalidInput, problemsOf } from '../../plugins/zod-schemas.ts';
import { imageKindOf, type ImageKind } from './image.ts';

/** A multipart upload, read whole: its text fields and its one file part, named `file`. */
export interface UploadForm {
  fields: Record<string, string>;
  file: { filename: string; bytes: Buffer } | null;
}

const FILE_FIELD = 'file';

const hasStatus = (error: unknown) =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number';
const hasCode = (error: unknown, code: string) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === code;

/**
 * Reads a multipart/form-data request within tight limits: one file of at
 * most `maxFileBytes`, a few short text fields. Anything past them is a 4xx
 * in the envelope; nothing is written until the whole form has been read.
 */
export async function readUploadForm(request: FastifyRequest, maxFileBytes: number): Promise<UploadForm> {
  if (!request.isMultipart()) throw refuse(415, errorCodes.unsupportedMediaType);
  const fields = new Map<string, string>();
  let file: UploadForm['file'] = null;
  const limits = {
    fileSize: maxFileBytes,
    files: 1,
    fields: 10,
    parts: 11,
    fieldSize: 256,
    fieldNameSize: 64,
    headerPairs: 20,
  };
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) throw refuse(400, errorCodes.invalidArguments, { field: part.fieldname });
        file = { filename: part.filename, bytes: await part.toBuffer() };
        continue;
      }
      // A value cut at fieldSize, a repeated name, or a JSON-typed part (parsed to an object) is not what a form sends.
      if (
        part.valueTruncated ||
        part.fieldnameTruncated ||
        fields.has(part.fieldname) ||
        typeof part.value !== 'string'
      ) {
        throw refuse(400, errorCodes.invalidArguments, { field: part.fieldname });
      }
      fields.set(part.fieldname, part.value);
    }
  } catch (error) {
    if (hasCode(error, 'FST_REQ_FILE_TOO_LARGE'))
      throw refuse(413, errorCodes.payloadTooLarge, {
        field: FILE_FIELD,
        message: uploadMessages.tooLarge(maxFileBytes),
      });
    // Our refusals and the plugin's limit errors carry their 4xx status; busboy's own parse errors
    // (no boundary, a body that ends mid-part) are plain Errors, and are the client's malformed body.
    if (hasStatus(error)) throw error;
    throw refuse(400, errorCodes.invalidFormat);
  }
  return { fields: Object.fromEntries(fields), file };
}

export interface CheckedImage {
  kind: ImageKind;
  bytes: Buffer;
}

/** The form's file if it is one of `kinds` by content (and, when `name` is given, by file name too); else the problem to report. */
export function checkedFile(
  form: UploadForm,
  rule: { kinds: readonly ImageKind[]; name?: RegExp; wrongType: string },
): CheckedImage | { problem: ApiErrorItem } {
  if (!form.file || form.file.bytes.length === 0)
    return { problem: { code: errorCodes.requiredField, field: FILE_FIELD, message: uploadMessages.fileRequired } };
  const kind = imageKindOf(form.file.bytes);
  const nameFits = rule.name === undefined || rule.name.test(form.file.filename);
  if (kind === null || !rule.kinds.includes(kind) || !nameFits)
    return { problem: { code: errorCodes.invalidFormat, field: FILE_FIELD, message: rule.wrongType } };
  return { kind, bytes: form.file.bytes };
}

/**
 * The form's text fields parsed by `schema`, and its checked file: a 400
 * names every problem at once, the fields' and the file's together.
 */
export function parseForm<Schema extends z.ZodType>(
  schema: Schema,
  form: UploadForm,
  file: CheckedImage | { problem: ApiErrorItem },
): { fields: z.output<Schema>; image: CheckedImage } {
  const result = schema.safeParse(form.fields, { reportInput: true });
  const fileProblems = 'problem' in file ? [file.problem] : [];
  if (!result.success) throw new InvalidInput([...problemsOf(result.error.issues), ...fileProblems]);
  if ('problem' in file) throw new InvalidInput(fileProblems);
  return { fields: result.data, image: file };
}

/** A re-encoded image over the limit is refused like an upload over it, before the database's own check would fail. */
export function withinLimit(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length > maxBytes)
    throw refuse(413, errorCodes.payloadTooLarge, { field: FILE_FIELD, message: uploadMessages.tooLarge(maxBytes) });
  return bytes;
}
