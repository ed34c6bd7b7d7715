import { Dialog } from './Dialog.tsx';
import { ServerErrors, useApiAction } from './feedback.tsx';

/** 'Are you sure…?' with the spec's confirm button; a refusal stays in the dialog. */
export function ConfirmDialog({
  title,
  question,
  confirm,
  cancel,
  onConfirm,
  onClose,
}: {
  title: string;
  question: string;
  confirm: string;
  /** The dismiss button's text, in the caller's words. */
  cancel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const action = useApiAction();
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {cancel}
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
