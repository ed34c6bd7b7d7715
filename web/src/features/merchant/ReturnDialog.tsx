import { returnSaleForm, type MerchantTransaction } from '@peeks/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { attemptKeys } from '../../lib/attempts.ts';
import { formatMoney, minorToTyped } from '../../lib/money.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { returnSale } from './merchant-api.ts';

type ReturnRequest = { tx_id: string; amount: number; reason: string };

/** What confirming says: part of the sale, all that is left, or an amount the route will weigh. */
const confirmationOf = (amount: number, left: number) =>
  amount < left
    ? 'merchant.return.confirm_partial'
    : amount === left
      ? 'merchant.return.confirm_full'
      : 'merchant.return.confirm_amount';

/**
 * Return on a sale: the amount (what is left of the sale, unless changed)
 * and a reason. The form's schema is the route's (returnSaleForm), so both
 * refuse in the same words; a retry of one attempt keeps its
 * Idempotency-Key, so the money moves once. Money moves only on a second
 * press that confirms the amount shown: a changed amount asks again.
 */
export function ReturnDialog({
  sale,
  onReturned,
  onClose,
}: {
  sale: MerchantTransaction;
  onReturned: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const left = sale.amount - sale.returned_amount;
  const keys = useRef(attemptKeys()).current;
  const spec = useSpecForm(returnSaleForm, {
    tx_id: sale.tx_id,
    currency: sale.currency,
    amount: minorToTyped(left, sale.currency),
    reason: '',
  });
  const [confirming, setConfirming] = useState<ReturnRequest | null>(null);
  const submit = async (request: ReturnRequest) => {
    if (confirming?.amount !== request.amount || confirming.reason !== request.reason) {
      setConfirming(request);
      return;
    }
    try {
      await returnSale(request, keys.keyFor(request));
      keys.settled(200);
    } catch (error) {
      if (error instanceof ApiError) keys.settled(error.status);
      throw error;
    }
    toast(t('merchant.return.done', { amount: formatMoney(request.amount, sale.currency) }));
    onReturned();
  };
  return (
    <Dialog title={t('merchant.return.title')} onClose={onClose}>
      <p>
        {t('merchant.return.left', {
          amount: formatMoney(left, sale.currency),
          total: formatMoney(sale.amount, sale.currency),
        })}
      </p>
      <Form spec={spec} onSubmit={submit}>
        <TextField name="amount" label={t('merchant.return.amount', { currency: sale.currency })} inputMode="decimal" />
        <TextField name="reason" label={t('merchant.return.reason')} maxLength={256} />
        {confirming && (
          <p role="status" className="return-confirm">
            {t(confirmationOf(confirming.amount, left), {
              amount: formatMoney(confirming.amount, sale.currency),
              total: formatMoney(sale.amount, sale.currency),
            })}
          </p>
        )}
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('merchant.return.cancel')}
          </button>
          <SubmitButton>
            {confirming
              ? t('merchant.return.confirm', { amount: formatMoney(confirming.amount, sale.currency) })
              : t('merchant.return.submit')}
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
