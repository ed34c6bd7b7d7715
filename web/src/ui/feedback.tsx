import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api.ts';

// Kept apart from form.tsx so screens of the first load (the shell's dialogs) do not pull react-hook-form in.

/** The server's texts for the last submit, announced as they appear. */
export function ServerErrors({ texts, title }: { texts: readonly string[]; title?: string | null | undefined }) {
  const { t } = useTranslation();
  if (texts.length === 0) return <div role="alert" className="visually-hidden" />;
  return (
    <div role="alert" className="server-errors">
      {/* null: a refusal that is not about the fields (a wrong password) reads without the heading. */}
      {title !== null && <strong>{title ?? t('form.problems')}</strong>}
      <ul>
        {texts.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}

/** A button's call outside a form (Send Code, Resend): busy while it runs, its refusal as texts to show. */
export function useApiAction() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setErrors([]);
    try {
      await action();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors(error.texts);
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, run };
}

export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('form.submitting')}</span>
    </div>
  );
}
