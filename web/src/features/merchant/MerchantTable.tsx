import type { Currency } from '@peeks/contracts';
import type { ReactNode } from 'react';
import { formatMoney } from '../../lib/money.ts';

/** A column of a merchant table: its heading, and what each row shows under it, or an amount in the row's currency. */
export type MerchantColumn<Row> = { heading: string } & (
  { cell: (row: Row) => ReactNode } | { amountOf: (row: Row) => number }
);

/**
 * A merchant screen's table of figures: it scrolls on its own, is named by
 * `label` (its visible caption too when `captioned`) and aligns amounts right.
 * The row for which `isCurrent` holds is marked as the one open below it.
 */
export function MerchantTable<Row extends { currency: Currency }>({
  label,
  captioned = false,
  columns,
  rows,
  keyOf,
  isCurrent,
}: {
  label: string;
  captioned?: boolean;
  columns: readonly MerchantColumn<Row>[];
  rows: readonly Row[];
  keyOf: (row: Row) => string;
  isCurrent?: (row: Row) => boolean;
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table className="table merchant-table">
        {captioned && <caption>{label}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.heading} scope="col" className={'amountOf' in column ? 'amount' : undefined}>
                {column.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={keyOf(row)} aria-current={isCurrent?.(row) ? 'true' : undefined}>
              {columns.map((column) => (
                <td key={column.heading} className={'amountOf' in column ? 'amount' : undefined}>
                  {'amountOf' in column ? formatMoney(column.amountOf(row), row.currency) : column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
