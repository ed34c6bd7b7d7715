import {
  clearDepositRequest,
  rejectDepositRequest,
  resolveBitcoinDepositRequest,
  type BitcoinDepositView,
  type PendingDeposit,
} from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Badge } from '../../ui/Badge.tsx';
import { Card } from '../../ui/Card.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input, Select } from '../../ui/fields.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { ActionDialog, useFieldErrors } from './ActionDialog.tsx';
import { FieldsDialog } from './FieldsDialog.tsx';
import { useDataLabel } from './labels.ts';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { actionsColumn } from './RowActions.tsx';
import { useLoad } from './use-load.ts';
import { formatDateTime } from '../../lib/dates.ts';

/** Typed money ("50" or "50.00") as minor units; NaN when it is not an amount, which the API refuses in words. */
/** Typed cents as minor units: nothing typed is missing (undefined), anything else not an amount is NaN (invalid). */
const typedMinor = (typed: string) =>
  typed.trim() === ''
    ? undefined
    : /^\d+(\.\d{1,2})?$/.test(typed.trim())
      ? Math.round(Number(typed) * 100)
      : Number.NaN;

/** What a deposit step's dialog gets: the deposit, and what to do when the step is done or the dialog closed. */
interface StepDialogProps<Deposit> {
  deposit: Deposit;
  onDone: () => void;
  onClose: () => void;
}

function ClearDialog({ deposit, onDone, onClose }: StepDialogProps<PendingDeposit>) {
  const { t } = useTranslation();
  return (
    <FieldsDialog
      title={t('operations.deposits.clear_title', { reference: deposit.reference ?? '' })}
      submitLabel={t('operations.deposits.clear')}
      schema={clearDepositRequest}
      fields={[
        {
          name: 'amount',
          sentAs: 'amount_received',
          label: t('operations.deposits.amount_received'),
          inputMode: 'decimal',
        },
        {
          name: 'currency',
          label: t('operations.deposits.currency'),
          initial: deposit.payment.currency,
          options: ['CAD', 'USD'].map((code) => ({ value: code, label: code })),
        },
        { name: 'reference', label: t('operations.deposits.memo'), hint: t('operations.deposits.memo_hint') },
      ]}
      toRequest={({ amount, currency, reference }) => ({
        tx_id: deposit.tx_id,
        amount_received: typedMinor(amount),
        currency,
        reference,
      })}
      act={async (request, key) => {
        await operationsApi.clearDeposit(request, key);
        toast(t('operations.deposits.cleared'));
      }}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

function RejectDialog({ deposit, onDone, onClose }: StepDialogProps<PendingDeposit>) {
  const { t } = useTranslation();
  return (
    <FieldsDialog
      title={t('operations.deposits.reject_title', { reference: deposit.reference ?? '' })}
      submitLabel={t('operations.deposits.reject')}
      danger
      schema={rejectDepositRequest}
      fields={[{ name: 'reason', label: t('operations.deposits.reason') }]}
      toRequest={({ reason }) => ({ tx_id: deposit.tx_id, reason })}
      act={async (request, key) => {
        await operationsApi.rejectDeposit(request, key);
        toast(t('operations.deposits.rejected'));
      }}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

/** The Resolve dialog's fields, by the names its request gives them. */
const RESOLVE_FIELDS = ['resolution', 'refund_address', 'reason'] as const;

function ResolveDialog({ deposit, onDone, onClose }: StepDialogProps<BitcoinDepositView>) {
  const { t } = useTranslation();
  const [resolution, setResolution] = useState<'credit' | 'refund'>('credit');
  const [address, setAddress] = useState('');
  const [reason, setReason] = useState('');
  const { fieldErrors, place, clear } = useFieldErrors((sentAs) => RESOLVE_FIELDS.find((field) => field === sentAs));
  const request = {
    tx_id: deposit.tx_id,
    resolution,
    reason,
    ...(resolution === 'refund' && address !== '' ? { refund_address: address } : {}),
  };
  return (
    <ActionDialog
      title={t('operations.deposits.resolve_title')}
      submitLabel={t('operations.deposits.resolve')}
      request={request}
      schema={resolveBitcoinDepositRequest}
      place={place}
      act={async (key) => {
        await operationsApi.resolveBitcoin(request, key);
        toast(t('operations.deposits.resolved'));
      }}
      onDone={onDone}
      onClose={onClose}
    >
      <p>{deposit.flag_reason}</p>
      <Select
        label={t('operations.deposits.resolution')}
        value={resolution}
        error={fieldErrors.resolution}
        onChange={(event) => {
          setResolution(event.target.value === 'refund' ? 'refund' : 'credit');
          clear();
        }}
        options={[
          { value: 'credit', label: t('operations.deposits.credit') },
          { value: 'refund', label: t('operations.deposits.refund') },
        ]}
      />
      {resolution === 'refund' && (
        <Input
          label={t('operations.deposits.refund_address')}
          value={address}
          error={fieldErrors.refund_address}
          onChange={(event) => {
            setAddress(event.target.value);
            clear();
          }}
          required
        />
      )}
      <Input
        label={t('operations.deposits.reason')}
        value={reason}
        error={fieldErrors.reason}
        onChange={(event) => {
          setReason(event.target.value);
          clear();
        }}
        required
      />
    </ActionDialog>
  );
}

type Open =
  { kind: 'clear' | 'reject'; deposit: PendingDeposit } | { kind: 'resolve'; deposit: BitcoinDepositView } | null;

export default function DepositsPage() {
  const { t } = useTranslation();
  const label = useDataLabel();
  const [method, setMethod] = useState('');
  const [pending, reloadPending] = useLoad(() =>
    operationsApi.pendingDeposits({ limit: 200, ...(method === '' ? {} : { method }) }),
  );
  const [flagged, reloadFlagged] = useLoad(operationsApi.flaggedBitcoin);
  const [open, setOpen] = useState<Open>(null);
  // What each step's dialog does when it is done (both lists may have changed) or closed.
  const step = {
    onDone: () => {
      setOpen(null);
      reloadPending();
      reloadFlagged();
    },
    onClose: () => {
      setOpen(null);
    },
  };
  return (
    <>
      <PageHeader title={t('operations.nav.deposits')} description={t('operations.deposits.description')} />
      <Card title={t('operations.deposits.bitcoin')}>
        <Loading loaded={flagged} retry={reloadFlagged}>
          {({ deposits }) => (
            <DataTable
              caption={t('operations.deposits.bitcoin')}
              rows={deposits}
              rowKey={(row) => row.tx_id}
              empty={t('operations.deposits.bitcoin_empty')}
              columns={[
                { header: t('operations.deposits.user'), cell: ({ row }) => row.original.username },
                {
                  header: t('operations.deposits.flag'),
                  cell: ({ row }) => <Badge tone="warning">{row.original.flag}</Badge>,
                },
                {
                  header: t('operations.deposits.sats'),
                  cell: ({ row }) => `${row.original.amount_sats} / ${row.original.confirmed_sats}`,
                },
                actionsColumn(
                  t('operations.deposits.actions'),
                  [{ kind: 'resolve', label: t('operations.deposits.resolve'), variant: 'secondary' }],
                  (kind, deposit: BitcoinDepositView) => {
                    setOpen({ kind, deposit });
                  },
                ),
              ]}
            />
          )}
        </Loading>
      </Card>
      <Card
        title={t('operations.deposits.pending')}
        actions={
          <Select
            label={t('operations.deposits.filter_method')}
            value={method}
            onChange={(event) => {
              setMethod(event.target.value);
              setTimeout(reloadPending, 0);
            }}
            options={[
              { value: '', label: t('operations.deposits.all_methods') },
              { value: 'interac', label: label('methods', 'interac') },
              { value: 'zelle', label: label('methods', 'zelle') },
            ]}
          />
        }
      >
        <Loading loaded={pending} retry={reloadPending}>
          {({ deposits }) => (
            <DataTable
              caption={t('operations.deposits.pending')}
              rows={deposits}
              rowKey={(row) => row.tx_id}
              empty={t('operations.deposits.empty')}
              columns={[
                { header: t('operations.deposits.reference'), cell: ({ row }) => row.original.reference },
                { header: t('operations.deposits.method'), cell: ({ row }) => label('methods', row.original.method) },
                {
                  header: t('operations.deposits.user'),
                  cell: ({ row }) =>
                    row.original.user_id === null ? (
                      row.original.owner_id
                    ) : (
                      <Link to={`/operations/people?user=${row.original.user_id}`}>{row.original.username}</Link>
                    ),
                },
                {
                  header: t('operations.deposits.expected'),
                  cell: ({ row }) => (
                    <Money minor={row.original.payment.amount} currency={row.original.payment.currency} />
                  ),
                },
                {
                  header: t('operations.deposits.entered'),
                  cell: ({ row }) => formatDateTime(row.original.entry_date),
                },
                actionsColumn(
                  t('operations.deposits.actions'),
                  [
                    { kind: 'clear', label: t('operations.deposits.clear'), variant: 'primary' },
                    { kind: 'reject', label: t('operations.deposits.reject'), variant: 'danger' },
                  ],
                  (kind, deposit: PendingDeposit) => {
                    setOpen({ kind, deposit });
                  },
                ),
              ]}
            />
          )}
        </Loading>
      </Card>
      {open?.kind === 'clear' && <ClearDialog deposit={open.deposit} {...step} />}
      {open?.kind === 'reject' && <RejectDialog deposit={open.deposit} {...step} />}
      {open?.kind === 'resolve' && <ResolveDialog deposit={open.deposit} {...step} />}
    </>
  );
}
