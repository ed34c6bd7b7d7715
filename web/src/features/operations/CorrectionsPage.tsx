import {
  correctBalanceForm,
  currencyCode,
  signedTypedToMinor,
  type CorrectBalanceRequest,
  type Currency,
  type PersonSummary,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { queryClient } from '../../lib/query.ts';
import { Card } from '../../ui/Card.tsx';
import { Select, SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { operationsApi } from './operations-api.ts';
import { PendingCorrections } from './PendingCorrections.tsx';
import { PersonPicker } from './PersonPicker.tsx';
import { operationsKeys, useLoad } from './use-load.ts';

/**
 * The id as a number, an empty one as NaN: the id field's own rule then
 * says what is wrong under it (left undefined, the schema's "a user or a
 * merchant" rule names user_id, which a merchant's form does not show).
 */
const typedId = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

/** A person's available balance in one currency: null while unknown, 0 without a wallet in it. */
function usePersonBalance(person: PersonSummary | null, currency: Currency) {
  const view = useQuery({
    queryKey: [...operationsKeys.all, 'person', person?.user_id ?? 0],
    queryFn: () => operationsApi.person(person?.user_id ?? 0),
    enabled: person !== null,
  });
  if (person === null || !view.data) return null;
  return view.data.wallets.find((wallet) => wallet.currency === currency)?.available ?? 0;
}

export default function CorrectionsPage() {
  const { t } = useTranslation();
  // The route's schema behind a units-to-minor step: a field's error shows before anything is sent.
  // Nobody picked is NaN, as an empty merchant id: the schema then names what is missing under the person field.
  const spec = useSpecForm(correctBalanceForm, { currency: 'CON', user_id: Number.NaN });
  const [whose, setWhose] = useState<'user' | 'merchant'>('user');
  const [person, setPerson] = useState<PersonSummary | null>(null);
  // A new round after a posted correction: the picker starts empty again.
  const [round, setRound] = useState(0);
  const [review, setReview] = useState<{ request: CorrectBalanceRequest; before: number | null } | null>(null);
  const [pending, reloadPending] = useLoad(operationsApi.pendingCorrections);
  const typedCurrency = currencyCode.safeParse(spec.form.watch('currency'));
  const currency = typedCurrency.success ? typedCurrency.data : 'CON';
  const typedAmount = spec.form.watch('amount');
  const amount = typeof typedAmount === 'string' ? signedTypedToMinor(typedAmount, currency) : Number.NaN;
  const before = usePersonBalance(whose === 'user' ? person : null, currency);
  const after = before !== null && Number.isSafeInteger(amount) && amount !== 0 ? before + amount : null;
  const currencyName = (code: Currency) => (code === 'USD' || code === 'CAD' ? code : t(`currencies.${code}`));
  const toReview = async (request: CorrectBalanceRequest) => {
    if (before !== null && before + request.amount < 0) {
      // Refused here, before anything is posted; the route refuses it too (Insufficient funds).
      spec.form.setError('amount', {
        type: 'server',
        message: t('operations.corrections.overdraw', { available: formatMoney(before, request.currency) }),
      });
      return Promise.resolve();
    }
    setReview({ request, before: request.user_id === undefined ? null : before });
    return Promise.resolve();
  };
  const pick = (picked: PersonSummary | null) => {
    setPerson(picked);
    spec.form.setValue('user_id', picked?.user_id ?? Number.NaN, { shouldValidate: spec.form.formState.isSubmitted });
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
              // One owner at a time: the schema wants a user's or a merchant's, never both.
              spec.form.unregister(whose === 'user' ? 'user_id' : 'merchant_id');
              if (whose === 'merchant') spec.form.setValue('user_id', Number.NaN);
              setPerson(null);
              setWhose(event.target.value === 'merchant' ? 'merchant' : 'user');
            }}
            options={[
              { value: 'user', label: t('operations.corrections.user') },
              { value: 'merchant', label: t('operations.corrections.merchant') },
            ]}
          />
          {whose === 'user' ? (
            <PersonPicker
              key={round}
              name="user_id"
              label={t('operations.corrections.person')}
              picked={person}
              onPick={pick}
            />
          ) : (
            <TextField
              name="merchant_id"
              label={t('operations.corrections.merchant_id')}
              inputMode="numeric"
              setValueAs={typedId}
            />
          )}
          <SelectField
            name="currency"
            label={t('operations.corrections.currency')}
            placeholder={t('operations.corrections.currency')}
            choices={currencyCode.options.map((code) => ({ value: code, label: currencyName(code) }))}
          />
          <TextField
            name="amount"
            label={t('operations.corrections.amount', { currency: currencyName(currency) })}
            hint={t('operations.corrections.amount_hint')}
            inputMode="decimal"
          />
          {before !== null && (
            <p className="correction-preview" role="status" aria-live="polite">
              {t('operations.corrections.available', { balance: formatMoney(before, currency) })}
              {after !== null && (
                <>
                  {' '}
                  <span className={after < 0 ? 'money-out' : undefined}>
                    {t('operations.corrections.after', {
                      balance: `${after < 0 ? '−' : ''}${formatMoney(Math.abs(after), currency)}`,
                    })}
                  </span>
                </>
              )}
            </p>
          )}
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
            void queryClient.invalidateQueries({ queryKey: [...operationsKeys.all, 'person'] });
            if ('correction' in answer) {
              toast(t('operations.corrections.requested'));
              reloadPending();
            } else toast(t('operations.corrections.posted'));
          }}
          onDone={() => {
            setReview(null);
            setPerson(null);
            setRound(round + 1);
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
