import type { MerchantReport } from '@peeks/contracts';
import { formatMinorUnits } from '@peeks/ledger';

const columns = [
  'date',
  'type',
  'transaction',
  'sale',
  'currency',
  'amount',
  'fee',
  'state',
  'reason',
  'batch',
  'customer',
] as const;

/** A field as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break, quotes doubled. */
function field(value: string): string {
  // A leading =, +, - or @ would be a formula to a spreadsheet: a quote mark keeps it text.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The report's lines as CSV: a header, then one line per sale, return and settlement, CRLF-terminated. */
export function reportCsv(report: Pick<MerchantReport, 'lines'>): string {
  const lines = report.lines.map((line) =>
    [
      line.entry_date,
      line.type,
      line.tx_id,
      line.parent_tx_id ?? '',
      line.currency,
      formatMinorUnits(line.amount, line.currency),
      formatMinorUnits(line.fee, line.currency),
      line.state,
      line.reason ?? '',
      line.batch_id ?? '',
      line.counterparty?.name ?? '',
    ]
      .map(field)
      .join(','),
  );
  return [columns.join(','), ...lines].map((line) => `${line}\r\n`).join('');
}
