import { useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';

/**
 * An operator's step in a dialog: the fields are the caller's, the submit
 * runs `act` with one Idempotency-Key per attempt (a double click or a
 * resend after no answer is the same attempt, answered once by the server),
 * and a refusal lists the API's texts (mismatch codes in words) in an alert.
 */
export function ActionDialog({
  title,
  submitLabel,
  request,
  act,
  onDone,
  onClose,
  children,
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
      await act(keys.current.keyFor(request));
      keys.current.settled(200);
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      keys.current.settled(error.status);
      setErrors(error.texts);
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
