import type { CorrectionRequest } from '@peeks/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatMoney } from '../../lib/money.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input } from '../../ui/fields.tsx';
import { Money } from '../../ui/Money.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import type { Loaded } from './use-load.ts';

type Pending = Awaited<ReturnType<typeof operationsApi.pendingCorrections>>;

function ApproveDialog({
  correction,
  onDone,
  onClose,
}: {
  correction: CorrectionRequest;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // One key for this dialog: a second click or a resend is the same approval, posted once.
  const key = useRef(crypto.randomUUID());
  return (
    <ConfirmDialog
      title={t('operations.corrections.pending.approve_title')}
      question={t('operations.corrections.pending.approve_question', {
        amount: `${correction.amount < 0 ? '−' : '+'}${formatMoney(Math.abs(correction.amount), correction.currency)}`,
        owner: correction.owner_id,
        reason: correction.reason,
        requester: correction.requested_by_username ?? correction.requested_by,
      })}
      confirm={t('operations.corrections.pending.approve')}
      cancel={t('operations.corrections.pending.cancel')}
      onConfirm={async () => {
        await operationsApi.approveCorrection(correction.correction_id, key.current);
        toast(t('operations.corrections.pending.approved'));
        onDone();
      }}
      onClose={onClose}
    />
  );
}

function RejectDialog({
  correction,
  onDone,
  onClose,
}: {
  correction: CorrectionRequest;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const request = { correction_id: correction.correction_id, reason };
  return (
    <ActionDialog
      title={t('operations.corrections.pending.reject_title')}
      submitLabel={t('operations.corrections.pending.reject')}
      danger
      request={request}
      act={async (key) => {
        await operationsApi.rejectCorrection(request, key);
        toast(t('operations.corrections.pending.rejected'));
      }}
      onDone={onDone}
      onClose={onClose}
    >
      <p>
        <Money minor={correction.amount} currency={correction.currency} signed /> · {correction.owner_id}
      </p>
      <Input
        label={t('operations.corrections.pending.reject_reason')}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
        }}
        required
      />
    </ActionDialog>
  );
}

/**
 * Corrections above the approval limit, waiting for a second finance
 * operator: anyone but the operator who asked may approve (post) or reject
 * each one. The server refuses the requester too; the button is not shown.
 */
export function PendingCorrections({ list, reload }: { list: Loaded<Pending>; reload: () => void }) {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const me = user === null ? null : `user-${String(user.user_id)}`;
  const [open, setOpen] = useState<{ kind: 'approve' | 'reject'; correction: CorrectionRequest } | null>(null);
  const done = () => {
    setOpen(null);
    reload();
  };
  return (
    <Card title={t('operations.corrections.pending.title')}>
      <p>{t('operations.corrections.pending.description')}</p>
      <Loading loaded={list} retry={reload}>
        {({ corrections }) => (
          <DataTable
            caption={t('operations.corrections.pending.table')}
            rows={corrections}
            rowKey={(row) => row.correction_id}
            empty={t('operations.corrections.pending.empty')}
            columns={[
              { header: t('operations.corrections.pending.whose'), cell: ({ row }) => row.original.owner_id },
              {
                header: t('operations.corrections.pending.amount'),
                cell: ({ row }) => <Money minor={row.original.amount} currency={row.original.currency} signed />,
              },
              { header: t('operations.corrections.pending.reason'), cell: ({ row }) => row.original.reason },
              {
                header: t('operations.corrections.pending.requested_by'),
                cell: ({ row }) => row.original.requested_by_username ?? row.original.requested_by,
              },
              {
                header: t('operations.corrections.pending.actions'),
                cell: ({ row }) =>
                  row.original.requested_by === me ? (
                    t('operations.corrections.pending.yours')
                  ) : (
                    <div className="buttons">
                      <Button
                        variant="primary"
                        onClick={() => {
                          setOpen({ kind: 'approve', correction: row.original });
                        }}
                      >
                        {t('operations.corrections.pending.approve')}
                      </Button>
                      <Button
                        variant="danger"
                        onClick={() => {
                          setOpen({ kind: 'reject', correction: row.original });
                        }}
                      >
                        {t('operations.corrections.pending.reject')}
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </Loading>
      {open?.kind === 'approve' && (
        <ApproveDialog
          correction={open.correction}
          onDone={done}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
      {open?.kind === 'reject' && (
        <RejectDialog
          correction={open.correction}
          onDone={done}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
    </Card>
  );
}
