import type { CorrectionRequest } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { Money } from '../../ui/Money.tsx';
import { toast } from '../../ui/toasts.tsx';
import { FourEyesQueue } from './FourEyesQueue.tsx';
import { operationsApi } from './operations-api.ts';
import type { Loaded } from './use-load.ts';

type Pending = Awaited<ReturnType<typeof operationsApi.pendingCorrections>>;

/** Corrections above the approval limit, waiting for a second finance operator: approving posts them. */
export function PendingCorrections({ list, reload }: { list: Loaded<Pending>; reload: () => void }) {
  const { t } = useTranslation();
  return (
    <FourEyesQueue
      words={{
        title: t('operations.corrections.pending.title'),
        description: t('operations.corrections.pending.description'),
        caption: t('operations.corrections.pending.table'),
        empty: t('operations.corrections.pending.empty'),
        requestedBy: t('operations.corrections.pending.requested_by'),
        actions: t('operations.corrections.pending.actions'),
        yours: t('operations.corrections.pending.yours'),
        approve: t('operations.corrections.pending.approve'),
        approveTitle: t('operations.corrections.pending.approve_title'),
        cancel: t('operations.corrections.pending.cancel'),
        reject: t('operations.corrections.pending.reject'),
        rejectTitle: t('operations.corrections.pending.reject_title'),
        rejectReason: t('operations.corrections.pending.reject_reason'),
      }}
      list={list}
      reload={reload}
      rowsOf={({ corrections }) => corrections}
      rowKey={(correction: CorrectionRequest) => correction.correction_id}
      columns={[
        { header: t('operations.corrections.pending.whose'), cell: ({ row }) => row.original.owner_id },
        {
          header: t('operations.corrections.pending.amount'),
          cell: ({ row }) => <Money minor={row.original.amount} currency={row.original.currency} signed />,
        },
        { header: t('operations.corrections.pending.reason'), cell: ({ row }) => row.original.reason },
      ]}
      variants={{ approve: 'primary', reject: 'danger' }}
      approveQuestion={(correction) =>
        t('operations.corrections.pending.approve_question', {
          amount: `${correction.amount < 0 ? '−' : '+'}${formatMoney(Math.abs(correction.amount), correction.currency)}`,
          owner: correction.owner_id,
          reason: correction.reason,
          requester: correction.requested_by_username ?? correction.requested_by,
        })
      }
      approve={async (correction, key) => {
        await operationsApi.approveCorrection(correction.correction_id, key);
        toast(t('operations.corrections.pending.approved'));
      }}
      rejectSummary={(correction) => (
        <>
          <Money minor={correction.amount} currency={correction.currency} signed /> · {correction.owner_id}
        </>
      )}
      reject={async (correction, reason, key) => {
        await operationsApi.rejectCorrection({ correction_id: correction.correction_id, reason }, key);
        toast(t('operations.corrections.pending.rejected'));
      }}
    />
  );
}
