import {
  ledgerFilter,
  ledgerTypeLabels,
  transactionFilter,
  transactionTypes,
  type LedgerEntry,
  type LedgerFilter,
  type TransactionFilter,
  type TransactionView,
} from '@peeks/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { StatusPill } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { When } from '../../ui/When.tsx';
import {
  everyLedgerEntry,
  everyTransaction,
  historyKeys,
  listLedger,
  listTransactions,
  PAGE_SIZE,
} from './history-api.ts';
import { ledgerCsv, transactionsCsv } from './history-csv.ts';
import { LedgerDetails, TransactionDetails } from './HistoryDetails.tsx';
import { HistoryTab } from './HistoryTab.tsx';
import { counterpartyLabel, transactionTypeLabel } from './labels.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { historyTexts } from './i18n.ts';
import { ledgerTypeWord } from '../../ui/words.ts';

addLaterTexts(historyTexts);

const signedMinor = (amount: number, debitCredit: 'D' | 'C') => (debitCredit === 'D' ? -amount : amount);

/** A row of either tab: signed by its side, in its currency. */
type Movement = Pick<TransactionView, 'amount' | 'debit_credit' | 'currency'>;

function amountColumn<Row extends Movement>(header: string): ColumnDef<Row> {
  return {
    id: 'amount',
    header,
    cell: ({ row }) => (
      <Money
        minor={signedMinor(row.original.amount, row.original.debit_credit)}
        currency={row.original.currency}
        signed
      />
    ),
  };
}

/** How the wallet moved, and beneath it what a card or bank paid or was paid instead. */
function WalletChange({ transaction }: { transaction: TransactionView }) {
  const { funding } = transaction;
  return (
    <>
      <Money minor={transaction.wallet_change} currency={transaction.currency} signed />
      {funding && (
        <small className="history-funding">
          {' '}
          {funding.label} · <Money minor={funding.amount} currency={funding.currency} />
        </small>
      )}
    </>
  );
}

/** Details, named for the row it opens (its transaction or ledger id) for screen readers. */
function DetailsButton({ what, onOpen }: { what: string; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Button className="small" aria-label={t('history.details_of', { what })} onClick={onOpen}>
      {t('history.details')}
    </Button>
  );
}

function detailsColumn<Row>(header: string, open: (row: Row) => void, idOf: (row: Row) => string): ColumnDef<Row> {
  return {
    id: 'actions',
    header,
    cell: ({ row }) => (
      <DetailsButton
        what={idOf(row.original)}
        onOpen={() => {
          open(row.original);
        }}
      />
    ),
  };
}

const loadTransactions = async (filter: TransactionFilter, offset: number, signal: AbortSignal) => {
  const page = await listTransactions(filter, offset, PAGE_SIZE, signal);
  return { rows: page.transactions, total: page.total };
};
const loadLedger = async (filter: LedgerFilter, offset: number, signal: AbortSignal) => {
  const page = await listLedger(filter, offset, PAGE_SIZE, signal);
  return { rows: page.ledgers, total: page.total };
};

function TransactionsTab() {
  const { t } = useTranslation();
  const columns = (open: (row: TransactionView) => void): ColumnDef<TransactionView>[] => [
    { id: 'date', header: t('history.columns.date'), cell: ({ row }) => <When at={row.original.entry_date} /> },
    { id: 'type', header: t('history.columns.type'), cell: ({ row }) => transactionTypeLabel(row.original.type) },
    {
      id: 'counterparty',
      header: t('history.columns.counterparty'),
      cell: ({ row }) => counterpartyLabel(row.original.counterparty) ?? '—',
    },
    { id: 'reference', header: t('history.columns.reference'), cell: ({ row }) => row.original.reference ?? '—' },
    amountColumn(t('history.columns.amount')),
    {
      id: 'wallet_change',
      header: t('history.columns.wallet_change'),
      cell: ({ row }) => <WalletChange transaction={row.original} />,
    },
    { id: 'state', header: t('history.columns.state'), cell: ({ row }) => <StatusPill status={row.original.state} /> },
    detailsColumn(t('history.columns.actions'), open, (row) => row.tx_id),
  ];
  return (
    <HistoryTab<TransactionView, TransactionFilter>
      caption={t('history.tabs.transactions')}
      schema={transactionFilter}
      typeOptions={transactionTypes.map((type) => ({ value: type, label: transactionTypeLabel(type) }))}
      queryKey={historyKeys.transactions}
      load={loadTransactions}
      loadAll={everyTransaction}
      csv={transactionsCsv}
      fileName="transactions.csv"
      columns={columns}
      rowKey={(row) => row.tx_id}
      details={(row, close) => <TransactionDetails transaction={row} onClose={close} />}
    />
  );
}

function LedgerTab() {
  const { t } = useTranslation();
  const columns = (open: (row: LedgerEntry) => void): ColumnDef<LedgerEntry>[] => [
    { id: 'date', header: t('history.columns.date'), cell: ({ row }) => <When at={row.original.entry_date} /> },
    { id: 'type', header: t('history.columns.type'), cell: ({ row }) => ledgerTypeWord(row.original.type) },
    amountColumn(t('history.columns.amount')),
    {
      id: 'transaction',
      header: t('history.columns.transaction'),
      cell: ({ row }) => <code className="history-id">{row.original.tx_id}</code>,
    },
    detailsColumn(t('history.columns.actions'), open, (row) => row.ledger_id),
  ];
  return (
    <HistoryTab<LedgerEntry, LedgerFilter>
      caption={t('history.tabs.ledger')}
      schema={ledgerFilter}
      typeOptions={Object.keys(ledgerTypeLabels).map((code) => ({ value: code, label: ledgerTypeWord(code) }))}
      queryKey={historyKeys.ledger}
      load={loadLedger}
      loadAll={everyLedgerEntry}
      csv={ledgerCsv}
      fileName="ledger.csv"
      columns={columns}
      rowKey={(row) => row.ledger_id}
      details={(row, close) => <LedgerDetails entry={row} onClose={close} />}
    />
  );
}

/**
 * /transaction (spec §2 Transactions and ledger): the Transactions and
 * Ledger tabs, the tab kept in the address (?tab=ledger) so a reload or a
 * shared link opens the same one.
 */
export default function TransactionsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const selected = params.get('tab') === 'ledger' ? 'ledger' : 'transactions';
  return (
    <section className="panel history-page">
      <PageHeader title={t('history.title')} description={t('history.description')} />
      <Tabs
        label={t('history.tabs_label')}
        selected={selected}
        onSelect={(id) => {
          setParams(id === 'ledger' ? { tab: 'ledger' } : {}, { replace: true });
        }}
        tabs={[
          { id: 'transactions', label: t('history.tabs.transactions'), panel: <TransactionsTab /> },
          { id: 'ledger', label: t('history.tabs.ledger'), panel: <LedgerTab /> },
        ]}
      />
    </section>
  );
}
