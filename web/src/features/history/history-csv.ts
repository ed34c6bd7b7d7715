import { ledgerTypeLabel, type LedgerEntry, type TransactionView } from '@peeks/contracts';
import { minorToTyped } from '../../lib/money.ts';

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

export function transactionsCsv(transactions: readonly TransactionView[]): string {
  return rows([
    ['date', 'tx_id', 'type', 'state', 'debit_credit', 'amount', 'fee', 'currency', 'reference'],
    ...transactions.map((each) => [
      csvCell(each.entry_date),
      csvCell(each.tx_id),
      csvCell(each.type),
      csvCell(each.state),
      csvCell(each.debit_credit),
      csvCell(signed(each.amount, each.debit_credit, each.currency)),
      csvCell(minorToTyped(each.fee, each.currency)),
      csvCell(each.currency),
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
