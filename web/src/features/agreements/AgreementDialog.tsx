import type { Agreement } from '@peeks/contracts';
import DOMPurify from 'dompurify';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors, useApiAction } from '../../ui/feedback.tsx';
import { acceptAgreement, skipAgreement } from './agreements-api.ts';
import { formatDate } from '../../lib/dates.ts';

/** Skip is offered only while the current time is before agree_by (spec §4). */
export const canSkip = (agreement: Agreement, now = new Date()) =>
  agreement.agreed_to === null && agreement.agree_by !== null && now < new Date(agreement.agree_by);

/**
 * The agreement modal (spec §2, §4): name and version, the description as
 * HTML (sanitized: it is the operator's text, but a page never renders
 * markup it did not clean), the accept checkbox (hidden once agreed),
 * effective and expiry dates; Cancel, Skip, Accept. `dismissable` false is
 * the dashboard's modal: no Cancel, no backdrop, and Escape only while Skip
 * is offered, where it skips.
 */
export function AgreementDialog({
  agreement,
  dismissable,
  onDone,
  onClose,
}: {
  agreement: Agreement;
  dismissable: boolean;
  onDone: (agreement: Agreement, how: 'accepted' | 'skipped') => void;
  onClose?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const checkboxId = useId();
  const errorId = useId();
  const [checked, setChecked] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const action = useApiAction();
  const agreed = agreement.agreed_to !== null;

  const accept = () => {
    if (!checked) {
      setCheckError(t('agreements.checkbox_required'));
      return;
    }
    void action.run(async () => {
      onDone(await acceptAgreement(agreement), 'accepted');
    });
  };
  const skip = () =>
    void action.run(async () => {
      onDone(await skipAgreement(agreement), 'skipped');
    });

  return (
    <Dialog
      title={t('agreements.modal_title', { name: agreement.name, version: agreement.version })}
      {...(dismissable && onClose ? { onClose } : {})}
      // Skip is a way out: Escape takes it, as Escape closes any dialog that can be left.
      {...(!agreed && canSkip(agreement)
        ? {
            onEscape: () => {
              if (!action.busy) skip();
            },
          }
        : {})}
      footer={
        <>
          {dismissable && onClose && (
            <button type="button" className="button" onClick={onClose}>
              {t('agreements.cancel')}
            </button>
          )}
          {!agreed && canSkip(agreement) && (
            <button type="button" className="button" disabled={action.busy} onClick={skip}>
              {t('agreements.skip')}
            </button>
          )}
          {!agreed && (
            <button type="button" className="button primary" disabled={action.busy} onClick={accept}>
              {t('agreements.accept')}
            </button>
          )}
        </>
      }
    >
      <ServerErrors texts={action.errors} />
      <div
        className="agreement-text"
        // Sanitized right here: scripts, event handlers and javascript: links are dropped.
        dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(agreement.short_description) }}
      />
      <dl className="agreement-dates">
        <dt>{t('agreements.effective')}</dt>
        <dd>{formatDate(agreement.effective_date, i18n.language)}</dd>
        <dt>{t('agreements.expiry')}</dt>
        <dd>{agreement.expiry_date ? formatDate(agreement.expiry_date, i18n.language) : t('agreements.no_expiry')}</dd>
      </dl>
      {!agreed && (
        <div className="field field-checkbox">
          <input
            id={checkboxId}
            type="checkbox"
            checked={checked}
            aria-invalid={checkError !== null}
            aria-describedby={checkError ? errorId : undefined}
            onChange={(event) => {
              setChecked(event.target.checked);
              if (event.target.checked) setCheckError(null);
            }}
          />
          <label htmlFor={checkboxId}>{t('agreements.checkbox')}</label>
          <p id={errorId} className="field-error" role="alert">
            {checkError}
          </p>
        </div>
      )}
    </Dialog>
  );
}
