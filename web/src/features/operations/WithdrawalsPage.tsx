import { failWithdrawalRequest, processWithdrawalRequest, type PendingWithdrawal } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../ui/Card.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { FieldsDialog } from './FieldsDialog.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { actionsColumn } from './RowActions.tsx';
import { useLoad } from './use-load.ts';

function StepDialog({
  kind,
  withdrawal,
  onDone,
  onClose,
}: {
  kind: 'process' | 'fail';
  withdrawal: PendingWithdrawal;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const process = kind === 'process';
  return (
    <FieldsDialog
      title={t(process ? 'operations.withdrawals.process_title' : 'operations.withdrawals.fail_title')}
      submitLabel={t(process ? 'operations.withdrawals.process' : 'operations.withdrawals.fail')}
      danger={!process}
      schema={process ? processWithdrawalRequest : failWithdrawalRequest}
      intro={
        <p>
          <Money minor={withdrawal.amount} currency={withdrawal.currency} /> · {withdrawal.owner_id}
        </p>
      }
      fields={[
        {
          name: 'text',
          sentAs: process ? 'payout_reference' : 'reason',
          label: t(process ? 'operations.withdrawals.payout_reference' : 'operations.deposits.reason'),
        },
      ]}
      toRequest={({ text }) =>
        process ? { tx_id: withdrawal.tx_id, payout_reference: text } : { tx_id: withdrawal.tx_id, reason: text }
      }
      act={async (request, key) => {
        if (process) await operationsApi.processWithdrawal(request, key);
        else await operationsApi.failWithdrawal(request, key);
        toast(t(process ? 'operations.withdrawals.processed' : 'operations.withdrawals.failed'));
      }}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const [list, reload] = useLoad(operationsApi.pendingWithdrawals);
  const [open, setOpen] = useState<{ kind: 'process' | 'fail'; withdrawal: PendingWithdrawal } | null>(null);
  return (
    <>
      <PageHeader title={t('operations.nav.withdrawals')} description={t('operations.withdrawals.description')} />
      <Card>
        <Loading loaded={list} retry={reload}>
          {({ withdrawals }) => (
            <DataTable
              caption={t('operations.nav.withdrawals')}
              rows={withdrawals}
              rowKey={(row) => row.tx_id}
              empty={t('operations.withdrawals.empty')}
              columns={[
                { header: t('operations.withdrawals.owner'), cell: ({ row }) => row.original.owner_id },
                {
                  header: t('operations.withdrawals.amount'),
                  cell: ({ row }) => <Money minor={row.original.amount} currency={row.original.currency} />,
                },
                { header: t('operations.withdrawals.destination'), cell: ({ row }) => row.original.destination },
                actionsColumn(
                  t('operations.deposits.actions'),
                  [
                    { kind: 'process', label: t('operations.withdrawals.process'), variant: 'primary' },
                    { kind: 'fail', label: t('operations.withdrawals.fail'), variant: 'danger' },
                  ],
                  (kind, withdrawal: PendingWithdrawal) => {
                    setOpen({ kind, withdrawal });
                  },
                ),
              ]}
            />
          )}
        </Loading>
      </Card>
      {open && (
        <StepDialog
          kind={open.kind}
          withdrawal={open.withdrawal}
          onDone={() => {
            setOpen(null);
            reload();
          }}
          onClose={() => {
            setOpen(null);
          }}
        />
      )}
    </>
  );
}
