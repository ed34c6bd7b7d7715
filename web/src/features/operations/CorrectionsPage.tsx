import { currencyCode, type Currency } from '@peeks/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Input, Select } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { ActionDialog } from './ActionDialog.tsx';
import { operationsApi } from './operations-api.ts';
import { PendingCorrections } from './PendingCorrections.tsx';
import { useLoad } from './use-load.ts';

interface Draft {
  whose: 'user' | 'merchant';
  id: string;
  currency: Currency;
  amount: string;
  reason: string;
}

const blank: Draft = { whose: 'user', id: '', currency: 'CON', amount: '', reason: '' };

/** The request a draft makes: the API refuses what is wrong with it in the contract's words. */
const requestOf = (draft: Draft) => ({
  ...(draft.whose === 'user' ? { user_id: Number(draft.id) } : { merchant_id: Number(draft.id) }),
  currency: draft.currency,
  amount: Number(draft.amount),
  reason: draft.reason,
});

export default function CorrectionsPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(blank);
  const [review, setReview] = useState<{ before: number | null } | null>(null);
  const [pending, reloadPending] = useLoad(operationsApi.pendingCorrections);
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
  };
  const toReview = async (event: SyntheticEvent) => {
    event.preventDefault();
    let before: number | null = null;
    if (draft.whose === 'user' && /^\d+$/.test(draft.id)) {
      try {
        const view = await operationsApi.person(Number(draft.id));
        before = view.wallets.find((wallet) => wallet.currency === draft.currency)?.total ?? 0;
      } catch {
        before = null;
      }
    }
    setReview({ before });
  };
  const amount = Number(draft.amount);
  return (
    <>
      <PageHeader title={t('operations.nav.corrections')} description={t('operations.corrections.description')} />
      <Card>
        <form className="spec-form" onSubmit={(event) => void toReview(event)}>
          <Select
            label={t('operations.corrections.whose')}
            value={draft.whose}
            onChange={(event) => {
              set({ whose: event.target.value === 'merchant' ? 'merchant' : 'user' });
            }}
            options={[
              { value: 'user', label: t('operations.corrections.user') },
              { value: 'merchant', label: t('operations.corrections.merchant') },
            ]}
          />
          <Input
            label={t('operations.corrections.id')}
            inputMode="numeric"
            value={draft.id}
            onChange={(event) => {
              set({ id: event.target.value });
            }}
          />
          <Select
            label={t('operations.corrections.currency')}
            value={draft.currency}
            onChange={(event) => {
              set({ currency: currencyCode.catch('CON').parse(event.target.value) });
            }}
            options={currencyCode.options.map((code) => ({ value: code, label: code }))}
          />
          <Input
            label={t('operations.corrections.amount')}
            inputMode="numeric"
            value={draft.amount}
            onChange={(event) => {
              set({ amount: event.target.value });
            }}
          />
          <Input
            label={t('operations.corrections.reason')}
            value={draft.reason}
            onChange={(event) => {
              set({ reason: event.target.value });
            }}
          />
          <div className="buttons">
            <Button type="submit" variant="primary">
              {t('operations.corrections.review')}
            </Button>
          </div>
        </form>
      </Card>
      {review && (
        <ActionDialog
          title={t('operations.corrections.confirm_title')}
          submitLabel={t('operations.corrections.confirm')}
          request={requestOf(draft)}
          act={async (key) => {
            const answer = await operationsApi.correctBalance(requestOf(draft), key);
            if ('correction' in answer) {
              toast(t('operations.corrections.requested'));
              reloadPending();
            } else toast(t('operations.corrections.posted'));
          }}
          onDone={() => {
            setReview(null);
            setDraft(blank);
          }}
          onClose={() => {
            setReview(null);
          }}
        >
          <p>
            {review.before === null || !Number.isSafeInteger(amount)
              ? t('operations.corrections.unknown_balance')
              : t('operations.corrections.resulting', {
                  before: formatMoney(review.before, draft.currency),
                  after: formatMoney(review.before + amount, draft.currency),
                })}
          </p>
          <p>{draft.reason}</p>
        </ActionDialog>
      )}
      <PendingCorrections list={pending} reload={reloadPending} />
    </>
  );
}
