import { ledgerTypeLabel, type LedgerEntry, type TransactionView } from '@peeks/contracts';
import { minorToTyped } from '../../lib/money.ts';
import { counterpartyLabel } from './labels.ts';

/**
 * A cell as spreadsheets read it: quoted when it holds a comma, quote or line
 * break; and a text a person typed (a reference) that starts like a formula
 * (= + - @) is prefixed with ' so a spreadsheet shows it rather than runs it.
 */
export function csvCell(value: string | number | null, { typed = false } = {}): string {
  let text = value === null ? '' : String(value);
  if (typed && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const rows = (lines: string[][]) => `${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;

/** Amounts signed from the viewer's side (money out is negative), in units with their decimals. */
const signed = (minor: number, debitCredit: 'D' | 'C', currency: TransactionView['currency']) =>
  `${debitCredit === 'D' && minor !== 0 ? '-' : ''}${minorToTyped(minor, currency)}`;

/** A wallet change in units, '-' for money out. */
const change = (minor: number, currency: TransactionView['currency']) =>
  `${minor < 0 ? '-' : ''}${minorToTyped(Math.abs(minor), currency)}`;

/**
 * What each currency's wallet held after each row: the wallet changes
 * added up oldest first (the list comes newest first). Over a whole
 * history the newest row's running balance is the balance.
 */
function runningBalances(transactions: readonly TransactionView[]): number[] {
  const totals = new Map<string, number>();
  const after = new Array<number>(transactions.length);
  for (let index = transactions.length - 1; index >= 0; index--) {
    const row = transactions[index];
    if (!row) continue;
    const total = (totals.get(row.currency) ?? 0) + row.wallet_change;
    totals.set(row.currency, total);
    after[index] = total;
  }
  return after;
}

export function transactionsCsv(transactions: readonly TransactionView[]): string {
  const balances = runningBalances(transactions);
  return rows([
    [
      'date',
      'tx_id',
      'type',
      'state',
      'debit_credit',
      'amount',
      'fee',
      'currency',
      'wallet_change',
      'running_balance',
      'funding_amount',
      'funding_currency',
      'funding',
      'counterparty',
      'reference',
    ],
    ...transactions.map((each, index) => [
      csvCell(each.entry_date),
      csvCell(each.tx_id),
      csvCell(each.type),
      csvCell(each.state),
      csvCell(each.debit_credit),
      csvCell(signed(each.amount, each.debit_credit, each.currency)),
      csvCell(minorToTyped(each.fee, each.currency)),
      csvCell(each.currency),
      csvCell(change(each.wallet_change, each.currency)),
      csvCell(change(balances[index] ?? 0, each.currency)),
      csvCell(each.funding ? minorToTyped(each.funding.amount, each.funding.currency) : null),
      csvCell(each.funding?.currency ?? null),
      csvCell(each.funding?.label ?? null, { typed: true }),
      csvCell(counterpartyLabel(each.counterparty), { typed: true }),
      csvCell(each.reference, { typed: true }),
    ]),
  ]);
}

export function ledgerCsv(entries: readonly LedgerEntry[]): string {
  return rows([
    ['date', 'ledger_id', 'type', 'label', 'debit_credit', 'amount', 'currency', 'tx_id'],
    ...entries.map((each) => [
      csvCell(each.entry_date),
      csvCell(each.ledger_id),
      csvCell(each.type),
      csvCell(ledgerTypeLabel(each.type)),
      csvCell(each.debit_credit),
      csvCell(signed(each.amount, each.debit_credit, each.currency)),
      csvCell(each.currency),
      csvCell(each.tx_id),
    ]),
  ]);
}

/** Hands the text to the browser as a file download. */
export function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, or some browsers download nothing.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}
