import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';

/** Bank Account and Wired Account: their modals come in a later release, and say so instead of pretending to save anything. */
export function AccountComingSoonDialog({ kind, onClose }: { kind: 'bank' | 'wire'; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t(kind === 'bank' ? 'payment_methods.add_bank_title' : 'payment_methods.add_wire_title')}
      onClose={onClose}
    >
      <p>{t('payment_methods.account_coming_soon')}</p>
    </Dialog>
  );
}
