import { createTerminalRequest, terminalRegistrationCodes } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CardsTab } from './CardsTab.tsx';
import { createTerminal, deleteTerminal, useTerminals } from './profile-api.ts';

/**
 * The Merchant Terminal tab (spec §2): cards 'Terminal n' (Terminal Id,
 * Registration Code, Comment) with delete ('Delete Terminal'); 'You have 0
 * Merchant' and Add Merchant when there are none. Editing is left out, as the
 * spec has its button commented out.
 */
export function TerminalTab() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const merchantId = user?.merchant_id ?? 0;
  const terminals = useTerminals(merchantId);
  const [open, setOpen] = useState<'none' | 'add' | number>('none');
  const close = () => {
    setOpen('none');
  };
  return (
    <CardsTab
      headingId="terminal-title"
      title={t('profile.tabs.terminal')}
      addLabel={t('profile.terminal.add')}
      onAdd={() => {
        setOpen('add');
      }}
      empty={t('profile.terminal.empty')}
      loaded={terminals}
      keyOf={(terminal) => terminal.merchant_terminal_id}
      card={(terminal, index) => (
        <>
          <h3>{t('profile.terminal.card', { n: index + 1 })}</h3>
          <dl className="detail-list">
            <dt>{t('profile.terminal.terminal_id')}</dt>
            <dd>{terminal.terminal_id}</dd>
            <dt>{t('profile.terminal.registration_code')}</dt>
            <dd>{terminal.registration_code}</dd>
            <dt>{t('profile.terminal.comment')}</dt>
            <dd>{terminal.comment}</dd>
          </dl>
          <button
            type="button"
            className="button small danger"
            aria-label={`${t('profile.delete')} ${terminal.terminal_id}`}
            onClick={() => {
              setOpen(terminal.merchant_terminal_id);
            }}
          >
            {t('profile.delete')}
          </button>
        </>
      )}
    >
      {open === 'add' && (
        <TerminalDialog
          merchantId={merchantId}
          onSaved={() => {
            toast(t('profile.terminal.added'));
            close();
          }}
          onClose={close}
        />
      )}
      {typeof open === 'number' && (
        <ConfirmDialog
          title={t('profile.terminal.delete_title')}
          question={t('profile.delete_question')}
          confirm={t('profile.delete_confirm')}
          cancel={t('profile.cancel')}
          onConfirm={async () => {
            await deleteTerminal(open);
            toast(t('profile.terminal.deleted'));
            close();
          }}
          onClose={close}
        />
      )}
    </CardsTab>
  );
}

function TerminalDialog({
  merchantId,
  onSaved,
  onClose,
}: {
  merchantId: number;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const spec = useSpecForm(createTerminalRequest, { merchant_id: merchantId, terminal_id: '', comment: '' });
  return (
    <Dialog title={t('profile.terminal.add')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await createTerminal(values);
          onSaved();
        }}
      >
        <TextField name="terminal_id" label={t('profile.terminal.terminal_id')} autoComplete="off" />
        <SelectField
          name="registration_code"
          label={t('profile.terminal.registration_code')}
          choices={terminalRegistrationCodes.map((code) => ({ value: String(code), label: String(code) }))}
          placeholder={t('profile.terminal.choose_code')}
        />
        <TextField name="comment" label={t('profile.terminal.comment')} autoComplete="off" />
        <SubmitButton>{t('profile.save')}</SubmitButton>
      </Form>
    </Dialog>
  );
}
