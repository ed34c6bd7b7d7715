import { type AuditEntry, type LedgerEntry, type TransactionView } from '@peeks/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Money } from '../../ui/Money.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { useAudit } from './history-api.ts';
import { LedgerReceipt } from './LedgerReceipt.tsx';
import { counterpartyLabel, formatWhen, transactionTypeLabel } from './labels.ts';
import { ledgerTypeWord } from '../../ui/words.ts';

function Facts({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="summary history-facts">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const signedMinor = (amount: number, debitCredit: 'D' | 'C') => (debitCredit === 'D' ? -amount : amount);

/** A withdrawal pays out to the card or bank, a return refunds it; anything else was paid with it. */
const fundingLabelOf = (type: string) =>
  type === 'withdraw'
    ? 'history.fields.funding_received'
    : type === 'return'
      ? 'history.fields.funding_refunded'
      : 'history.fields.funding_paid';

/** A transaction's Details (spec §2): the fields a person can act on, none of the ledger's plumbing. */
export function TransactionDetails({ transaction, onClose }: { transaction: TransactionView; onClose: () => void }) {
  const { t } = useTranslation();
  const facts: [string, ReactNode][] = [
    [t('history.fields.tx_id'), <code key="id">{transaction.tx_id}</code>],
    [t('history.fields.entry_date'), formatWhen(transaction.entry_date)],
    [t('history.fields.type'), transactionTypeLabel(transaction.type)],
    [t('history.fields.state'), <StatusPill key="state" status={transaction.state} />],
    [t('history.fields.direction'), t(`history.direction.${transaction.debit_credit}`)],
    [
      t('history.fields.amount'),
      <Money
        key="amount"
        minor={signedMinor(transaction.amount, transaction.debit_credit)}
        currency={transaction.currency}
        signed
      />,
    ],
    [
      t('history.fields.wallet_change'),
      <Money key="wallet" minor={transaction.wallet_change} currency={transaction.currency} signed />,
    ],
    [t('history.fields.fee'), <Money key="fee" minor={transaction.fee} currency={transaction.currency} />],
  ];
  const counterparty = counterpartyLabel(transaction.counterparty);
  if (counterparty)
    facts.push([t(transaction.debit_credit === 'D' ? 'history.fields.to' : 'history.fields.from'), counterparty]);
  if (transaction.funding) {
    const { funding } = transaction;
    facts.push([
      t(fundingLabelOf(transaction.type)),
      <span key="funding">
        {funding.label} · <Money minor={funding.amount} currency={funding.currency} />
      </span>,
    ]);
  }
  if (transaction.quote) {
    const { quote } = transaction;
    facts.push([
      t('history.fields.rate'),
      t('history.rate', { rate: quote.rate, from: quote.from_currency, to: quote.to_currency }),
    ]);
  }
  if (transaction.reference) facts.push([t('history.fields.reference'), transaction.reference]);
  if (transaction.customer_Name) facts.push([t('history.fields.customer'), transaction.customer_Name]);
  if (transaction.hold_amount !== null && transaction.hold_amount > 0) {
    facts.push([
      t('history.fields.hold'),
      <Money key="hold" minor={transaction.hold_amount} currency={transaction.currency} />,
    ]);
    if (transaction.hold_release_at)
      facts.push([t('history.fields.hold_release'), formatWhen(transaction.hold_release_at)]);
  }
  if (transaction.parent_tx_id)
    facts.push([t('history.fields.parent'), <code key="parent">{transaction.parent_tx_id}</code>]);
  if (transaction.refunded) facts.push([t('history.fields.refunded'), t('history.yes')]);
  if (transaction.partially_refunded)
    facts.push([
      t('history.fields.partially_refunded'),
      <Money key="refunded" minor={transaction.refunded_amount} currency={transaction.currency} />,
    ]);
  if (transaction.error_code)
    facts.push([t('history.fields.error'), transaction.fi_response_text ?? transaction.error_code]);
  return (
    <Dialog
      title={t('history.details')}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('history.close')}</Button>}
    >
      <Facts facts={facts} />
      <LedgerReceipt transaction={transaction} />
    </Dialog>
  );
}

/** `serial:from account:currency:value`; the account may hold colons of its own, so read from both ends. */
export function parseAuditSerial(fromSerial: string) {
  const parts = fromSerial.split(':');
  const serial = parts[0] ?? '';
  const value = parts.length >= 4 ? Number(parts.at(-1)) : Number.NaN;
  const currency = parts.length >= 4 ? (parts.at(-2) ?? '') : '';
  return { serial, value, currency };
}

function AuditList({ txId }: { txId: string }) {
  const { t } = useTranslation();
  const audit = useAudit(txId);
  return (
    <QueryView
      query={audit}
      loading={<Skeleton lines={2} />}
      failed={() => <p role="alert">{t('history.failed')}</p>}
      isEmpty={(entries) => entries.length === 0}
      empty={<p className="empty-title">{t('history.no_audit')}</p>}
    >
      {(entries) => <AuditTable entries={entries} />}
    </QueryView>
  );
}

function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  const { t } = useTranslation();
  // Another wallet's coin comes without its serial (from_serial null): only that it was another wallet's.
  const rows = entries.map((step, index) => ({
    step,
    key: `${step.from_serial ?? 'another-wallet'}-${String(index)}`,
    ...parseAuditSerial(step.from_serial ?? ''),
  }));
  const known = (currency: string) =>
    currency === 'CON' || currency === 'USD' || currency === 'CAD' || currency === 'IMP';
  return (
    <DataTable
      caption={t('history.audit.title')}
      rows={rows}
      rowKey={(row) => row.key}
      empty={t('history.no_audit')}
      columns={[
        {
          header: t('history.audit.serial'),
          cell: ({ row: { original } }) => (
            <>
              {original.step.from_serial !== null && <code className="serial">{original.serial}</code>}
              {original.step.from_another_wallet && (
                <small className="audit-origin">{t('history.audit.another_wallet')}</small>
              )}
            </>
          ),
        },
        {
          header: t('history.audit.amount'),
          cell: ({ row: { original } }) =>
            known(original.currency) && Number.isFinite(original.value) ? (
              <Money minor={original.value} currency={original.currency} />
            ) : (
              '—'
            ),
        },
        { header: t('history.audit.currency'), cell: ({ row }) => row.original.currency || '—' },
        { header: t('history.audit.action'), cell: ({ row }) => row.original.step.action },
      ]}
    />
  );
}

/** A ledger entry's details (spec §2): the posting, then the audit list of the coins its transaction moved. */
export function LedgerDetails({ entry, onClose }: { entry: LedgerEntry; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('history.details')}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('history.close')}</Button>}
    >
      <Facts
        facts={[
          [t('history.fields.ledger_id'), <code key="id">{entry.ledger_id}</code>],
          [t('history.fields.entry_date'), formatWhen(entry.entry_date)],
          [t('history.fields.type'), ledgerTypeWord(entry.type)],
          [
            t('history.fields.amount'),
            <Money
              key="amount"
              minor={signedMinor(entry.amount, entry.debit_credit)}
              currency={entry.currency}
              signed
            />,
          ],
          [t('history.fields.tx_id'), <code key="tx">{entry.tx_id}</code>],
        ]}
      />
      <AuditList txId={entry.tx_id} />
    </Dialog>
  );
}
