import { errorCodes, merchantNameLocked, type ApiErrorItem } from '@peeks/contracts';

/**
 * Name and DBA are shown in the edit modal but only an admin may change them
 * (spec §6). Sent unchanged they are fine (the form posts what it shows);
 * a different value is refused rather than silently dropped, so the caller
 * knows it did not happen.
 */
export function lockedFieldChanges(
  sent: { name?: string | undefined; dba?: string | undefined },
  current: { name: string; dba: string },
): ApiErrorItem[] {
  return (['name', 'dba'] as const)
    .filter((field) => sent[field] !== undefined && sent[field].trim() !== current[field])
    .map((field) => ({ code: errorCodes.notAuthorized, field, message: merchantNameLocked }));
}
