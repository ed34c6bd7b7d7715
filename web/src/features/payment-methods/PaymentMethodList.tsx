import type { PaymentMethod } from '@peeks/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { MenuButton } from '../../ui/Menu.tsx';
import { LoadingOverlay, ServerErrors, useApiAction } from '../../ui/feedback.tsx';
import { AddCreditCardDialog } from './AddCreditCardDialog.tsx';
import { BankAccountDialog } from './BankAccountDialog.tsx';
import { WireAccountDialog } from './WireAccountDialog.tsx';
import { deletePaymentMethod, makeDefault, usePaymentMethods } from './payment-methods-api.ts';
import { formatDate } from '../../lib/dates.ts';

type Modal = 'card' | 'bank' | 'wire';

/**
 * /payment-method-list (spec §2, §4): how many methods, an Add Payment
 * Method menu whose entries each open a modal, and a selector card per
 * method with Delete, and Select when it is not the default. The list
 * reloads after each modal closes and after each change.
 */
export default function PaymentMethodList() {
  const { t } = useTranslation();
  const titleId = useId();
  const list = usePaymentMethods();
  const methods = list.data ?? null;
  const failed = list.isError;
  const reload = () => void list.refetch();
  const [modal, setModal] = useState<Modal | null>(null);
  const [deleting, setDeleting] = useState<PaymentMethod | null>(null);
  const action = useApiAction();

  const closeModal = () => {
    setModal(null);
    reload();
  };
  const heading = useRef<HTMLHeadingElement>(null);
  // After a confirmed delete the method's card (and the focus the dialog handed back to it) goes with the reload.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || methods === null) return;
    refocus.current = false;
    heading.current?.focus();
  }, [methods]);
  // Select and Delete take their own button away: focus goes to the page's heading, and the count (a status) says what changed.
  const change = (work: () => Promise<void>) =>
    void action.run(async () => {
      // The change invalidates the list, which reads itself again.
      try {
        await work();
      } finally {
        heading.current?.focus();
      }
    });

  return (
    <section className="panel payment-methods" aria-labelledby={titleId} aria-busy={methods === null || action.busy}>
      <div className="panel-heading">
        <h1 id={titleId} ref={heading} tabIndex={-1}>
          {t('payment_methods.title')}
        </h1>
        <AddMenu onChoose={setModal} />
      </div>
      <p role="status">{methods !== null && t('payment_methods.count', { count: methods.length })}</p>
      {failed && (
        <div role="alert" className="server-errors">
          {t('payment_methods.load_failed')}{' '}
          <button type="button" className="link-button" onClick={reload}>
            {t('payment_methods.try_again')}
          </button>
        </div>
      )}
      <ServerErrors texts={action.errors} />
      {methods !== null && (
        <ul className="method-cards">
          {methods.map((method) => (
            <MethodCard
              key={method.payment_method_id}
              method={method}
              busy={action.busy}
              onSelect={() => {
                change(() => makeDefault(method.payment_method_id));
              }}
              onDelete={() => {
                setDeleting(method);
              }}
            />
          ))}
        </ul>
      )}
      {(methods === null || action.busy) && !failed && <LoadingOverlay />}
      {deleting && (
        // Deleting cannot be undone: it is asked first (the spec's contacts ask the same way).
        <ConfirmDialog
          title={t('payment_methods.delete_title')}
          question={t('payment_methods.delete_question', {
            method: `${deleting.brand.toUpperCase()} ${deleting.number}`,
          })}
          confirm={t('payment_methods.delete_confirm')}
          cancel={t('payment_methods.cancel')}
          onConfirm={async () => {
            await deletePaymentMethod(deleting.payment_method_id);
            refocus.current = true;
            setDeleting(null);
          }}
          onClose={() => {
            setDeleting(null);
          }}
        />
      )}
      {modal === 'card' && <AddCreditCardDialog onClose={closeModal} />}
      {modal === 'bank' && <BankAccountDialog onClose={closeModal} />}
      {modal === 'wire' && <WireAccountDialog onClose={closeModal} />}
    </section>
  );
}

/** 'Add Payment Method': a menu button with Credit Card, Bank Account and Wired Account, each opening its modal. */
function AddMenu({ onChoose }: { onChoose: (modal: Modal) => void }) {
  const { t } = useTranslation();
  const entries: [Modal, string][] = [
    ['card', t('payment_methods.credit_card')],
    ['bank', t('payment_methods.bank_account')],
    ['wire', t('payment_methods.wired_account')],
  ];
  return (
    <MenuButton
      className="button primary"
      label={t('payment_methods.add')}
      entries={entries.map(([modal, label]) => ({
        id: modal,
        label,
        onSelect: () => {
          onChoose(modal);
        },
      }))}
    />
  );
}

/** The card month and year as MM/YYYY; a wire account shows its entry date instead (spec §2; the date as every date shows). */
function expiryOf(method: PaymentMethod): string | null {
  const expiry = method.type_specific.card_expiry as { month?: unknown; year?: unknown } | undefined;
  if (typeof expiry?.month !== 'number' || typeof expiry.year !== 'number') return null;
  return `${String(expiry.month).padStart(2, '0')}/${String(expiry.year)}`;
}

const ICONS: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MC',
  amex: 'AMEX',
  discover: 'DISC',
  bank: 'BANK',
  wire: 'WIRE',
};

function MethodCard({
  method,
  busy,
  onSelect,
  onDelete,
}: {
  method: PaymentMethod;
  busy: boolean;
  onSelect: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const expiry = expiryOf(method);
  const name =
    method.type === 'CC' ? `${method.brand.toUpperCase()} ${method.number}` : `${method.brand} ${method.number}`;
  return (
    <li className={`method-card${method.is_default ? ' default' : ''}`} aria-labelledby={nameId}>
      <span className="method-icon" aria-hidden="true">
        {ICONS[method.icon] ?? method.icon.toUpperCase()}
      </span>
      <div className="method-details">
        <strong id={nameId}>{name}</strong>
        {method.type === 'WIRE' && (
          <span>{t('payment_methods.entered', { date: formatDate(method.entry_date, i18n.language) })}</span>
        )}
        {expiry && <span>{t('payment_methods.expires', { expiry })}</span>}
        {method.is_default && <span className="badge">{t('payment_methods.default')}</span>}
      </div>
      <div className="buttons">
        {!method.is_default && (
          <button type="button" className="button" disabled={busy} onClick={onSelect}>
            {t('payment_methods.select')}
          </button>
        )}
        <button type="button" className="button" disabled={busy} onClick={onDelete}>
          {t('payment_methods.delete')}
        </button>
      </div>
    </li>
  );
}
