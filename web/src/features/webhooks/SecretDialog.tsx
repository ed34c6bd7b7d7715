import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toasts.tsx';
import { verificationSnippet } from './verification-snippet.ts';

/** The signing secret, shown once (after Add or Rotate), with Copy and how a receiver checks a signature. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    toast(t('webhooks.copied'));
  };
  return (
    <Dialog
      title={t('webhooks.secret_title')}
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          {t('webhooks.close')}
        </button>
      }
    >
      <p>{t('webhooks.secret_once')}</p>
      <div className="secret-row">
        <code className="secret" data-testid="signing-secret">
          {secret}
        </code>
        <button type="button" className="button" onClick={() => void copy()}>
          {t('webhooks.copy')}
        </button>
      </div>
      <VerificationSnippet />
    </Dialog>
  );
}

export function VerificationSnippet() {
  const { t } = useTranslation();
  return (
    <details className="snippet">
      <summary>{t('webhooks.verify_title')}</summary>
      <p>{t('webhooks.verify_intro')}</p>
      <pre tabIndex={0}>
        <code>{verificationSnippet}</code>
      </pre>
    </details>
  );
}
