import { correctBalanceRequest, currencyCode, type CorrectBalanceRequest } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { Card } from '../../ui/Card.tsx';
import { Select, SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { operationsApi } from './operations-api.ts';
import { PendingCorrections } from './PendingCorrections.tsx';
import { useLoad } from './use-load.ts';

/** A typed number for the schema: empty is "not entered", anything else the number it reads as (NaN is refused). */
const typedNumber = (typed: string) => (typed.trim() === '' ? undefined : Number(typed));
/**
 * The id as a number, an empty one as NaN: the id field's own rule then
 * says what is wrong under it (left undefined, the schema's "a user or a
 * merchant" rule names user_id, which a merchant's form does not show).
 */
const typedId = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

export default function CorrectionsPage() {
  const { t } = useTranslation();
  // The same schema the route validates with: a field's error shows before anything is sent.
  const spec = useSpecForm(correctBalanceRequest, { currency: 'CON' });
  const [whose, setWhose] = useState<'user' | 'merchant'>('user');
  const [review, setReview] = useState<{ request: CorrectBalanceRequest; before: number | null } | null>(null);
  const [pending, reloadPending] = useLoad(operationsApi.pendingCorrections);
  const toReview = async (request: CorrectBalanceRequest) => {
    let before: number | null = null;
    if (request.user_id !== undefined) {
      try {
        const view = await operationsApi.person(request.user_id);
        before = view.wallets.find((wallet) => wallet.currency === request.currency)?.total ?? 0;
      } catch {
        before = null;
      }
    }
    setReview({ request, before });
  };
  return (
    <>
      <PageHeader title={t('operations.nav.corrections')} description={t('operations.corrections.description')} />
      <Card>
        <Form spec={spec} onSubmit={toReview}>
          <Select
            label={t('operations.corrections.whose')}
            value={whose}
            onChange={(event) => {
              // One id field at a time: the schema wants a user's or a merchant's, never both.
              spec.form.unregister(whose === 'user' ? 'user_id' : 'merchant_id');
              setWhose(event.target.value === 'merchant' ? 'merchant' : 'user');
            }}
            options={[
              { value: 'user', label: t('operations.corrections.user') },
              { value: 'merchant', label: t('operations.corrections.merchant') },
            ]}
          />
          <TextField
            key={whose}
            name={whose === 'user' ? 'user_id' : 'merchant_id'}
            label={t('operations.corrections.id')}
            inputMode="numeric"
            setValueAs={typedId}
          />
          <SelectField
            name="currency"
            label={t('operations.corrections.currency')}
            placeholder={t('operations.corrections.currency')}
            choices={currencyCode.options.map((code) => ({ value: code, label: code }))}
          />
          <TextField
            name="amount"
            label={t('operations.corrections.amount')}
            inputMode="numeric"
            setValueAs={typedNumber}
          />
          <TextField name="reason" label={t('operations.corrections.reason')} />
          <div className="buttons">
            <SubmitButton>{t('operations.corrections.review')}</SubmitButton>
          </div>
        </Form>
      </Card>
      {review && (
        <ActionDialog
          title={t('operations.corrections.confirm_title')}
          submitLabel={t('operations.corrections.confirm')}
          request={review.request}
          act={async (key) => {
            const answer = await operationsApi.correctBalance(review.request, key);
            if ('correction' in answer) {
              toast(t('operations.corrections.requested'));
              reloadPending();
            } else toast(t('operations.corrections.posted'));
          }}
          onDone={() => {
            setReview(null);
            spec.form.reset();
          }}
          onClose={() => {
            setReview(null);
          }}
        >
          <p>
            {review.before === null
              ? t('operations.corrections.unknown_balance')
              : t('operations.corrections.resulting', {
                  before: formatMoney(review.before, review.request.currency),
                  after: formatMoney(review.before + review.request.amount, review.request.currency),
                })}
          </p>
          <p>{review.request.reason}</p>
        </ActionDialog>
      )}
      <PendingCorrections list={pending} reload={reloadPending} />
    </>
  );
}
