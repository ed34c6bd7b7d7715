import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../lib/api.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { LoadingOverlay, ServerErrors } from '../../ui/feedback.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session, switchMerchant } from '../session/index.ts';

/** Merchant switch (spec §4): choose another merchant, the user is reloaded for it, then the browser goes to /. Errors show in the dialog. */
export function SwitchMerchantDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSnapshot(session);
  const [chosen, setChosen] = useState(String(user?.merchant_id ?? ''));
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      await switchMerchant(Number(chosen));
      toast(t('toasts.merchant_switched', { merchant: user.merchants[chosen] ?? chosen }));
      onClose();
      void navigate('/');
    } catch (error) {
      setErrors(error instanceof ApiError ? error.texts : [t('errors.something_went_wrong')]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('merchant_switch.title')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('merchant_switch.cancel')}
          </button>
          <button type="submit" form="switch-merchant" className="button primary" disabled={busy}>
            {t('merchant_switch.submit')}
          </button>
        </>
      }
    >
      <form id="switch-merchant" onSubmit={(event) => void submit(event)} className="spec-form">
        <ServerErrors texts={errors} />
        <fieldset>
          <legend>{t('merchant_switch.choose')}</legend>
          {Object.entries(user.merchants).map(([id, name]) => (
            <label key={id} className="radio">
              <input
                type="radio"
                name="merchant_id"
                value={id}
                checked={chosen === id}
                onChange={() => {
                  setChosen(id);
                }}
              />
              {name} {Number(id) === user.merchant_id && t('merchant_switch.current')}
            </label>
          ))}
        </fieldset>
        {busy && <LoadingOverlay />}
      </form>
    </Dialog>
  );
}
