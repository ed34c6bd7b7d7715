import { useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { i18n } from '../../i18n/i18n.ts';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { translatedValidation } from '../../i18n/validation-texts.ts';

/** Throws the refusal the route would answer for `request`, as it would word it: one problem per field, the first found. */
function checkAsTheRoute(schema: z.ZodType, request: unknown) {
  const checked = schema.safeParse(request);
  if (checked.success) return;
  const firsts = new Map<string, z.core.$ZodIssue>();
  for (const issue of checked.error.issues) {
    const field = issue.path.map(String).join('.');
    if (!firsts.has(field)) firsts.set(field, issue);
  }
  // 4001 is a field rule: its text is the rule's own words.
  throw new ApiError(
    422,
    [...firsts].map(([field, issue]) => ({
      code: 4001,
      field,
      message: issue.message,
      text: translatedValidation(issue.message, i18n.t),
    })),
  );
}

/**
 * A dialog's errors about its own fields, shown under each: `place` keeps,
 * from a refusal (the route's schema or the server's answer), the first
 * error about each field that `fieldOf` knows by the name the request gives
 * it, and gives back the rest for the dialog's alert. `clear` forgets them:
 * any edit does (spec §4), since they were about the values sent.
 */
export function useFieldErrors<Name extends string>(fieldOf: (sentAs: string) => Name | undefined) {
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Name, string>>>({});
  const place = (error: ApiError) => {
    const under: Partial<Record<Name, string>> = {};
    const rest = error.errors.filter((each) => {
      const field = each.field === undefined ? undefined : fieldOf(each.field);
      if (field === undefined) return true;
      under[field] ??= each.text;
      return false;
    });
    setFieldErrors(under);
    return new ApiError(error.status, rest);
  };
  const clear = () => {
    setFieldErrors({});
  };
  return { fieldErrors, place, clear };
}

/**
 * An operator's step in a dialog: the fields are the caller's, the submit
 * runs `act` with one Idempotency-Key per attempt (a double click or a
 * resend after no answer is the same attempt, answered once by the server),
 * and a refusal lists the API's texts (mismatch codes in words) in an alert,
 * but for those `place` puts under the dialog's fields (useFieldErrors).
 * With `schema` (the route's own, from the contracts) a request it refuses
 * is not sent, and reads as the route would refuse it.
 */
export function ActionDialog({
  title,
  submitLabel,
  request,
  act,
  onDone,
  onClose,
  children,
  schema,
  place,
  danger = false,
}: {
  title: ReactNode;
  submitLabel: string;
  /** What will be sent: the same request keeps its key until the server settles it. */
  request: unknown;
  act: (idempotencyKey: string) => Promise<void>;
  onDone: () => void;
  onClose: () => void;
  children: ReactNode;
  schema?: z.ZodType | undefined;
  place?: (error: ApiError) => ApiError;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  const keys = useRef(attemptKeys());
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors([]);
    try {
      const key = keys.current.keyFor(request);
      if (schema) checkAsTheRoute(schema, request);
      await act(key);
      keys.current.settled(200);
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      keys.current.settled(error.status);
      setErrors((place ? place(error) : error).texts);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <form className="spec-form" noValidate onSubmit={(event) => void submit(event)}>
        {errors.length > 0 && (
          <div className="server-errors" role="alert">
            <ul>
              {errors.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </div>
        )}
        {children}
        <div className="buttons">
          <Button onClick={onClose}>{t('operations.cancel')}</Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
