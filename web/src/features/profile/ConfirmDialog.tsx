import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors, useApiAction } from '../../ui/feedback.tsx';

/** 'Are you sure…?' with the spec's confirm button; a refusal stays in the dialog. */
export function ConfirmDialog({
  title,
  question,
  confirm,
  onConfirm,
  onClose,
}: {
  title: string;
  question: string;
  confirm: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const action = useApiAction();
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('profile.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={action.busy}
            onClick={() => void action.run(onConfirm)}
          >
            {confirm}
          </button>
        </>
      }
    >
      <ServerErrors texts={action.errors} />
      <p>{question}</p>
    </Dialog>
  );
}
