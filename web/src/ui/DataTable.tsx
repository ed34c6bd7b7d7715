import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState.tsx';

/**
 * A table over @tanstack/react-table (headless: it gives the rows and cells,
 * we keep the markup). Paging and filtering are the server's, so the rows
 * given are the page shown. One table in the DOM for every width: on a wide
 * screen a table, on a phone each row a stacked card whose cells name their
 * column (`data-label`, from the column's header), so nothing scrolls
 * sideways and a screen reader still reads a table.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: ReactNode;
  columns: ColumnDef<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** What shows instead of the table when there are no rows. */
  empty: ReactNode;
}) {
  // TanStack's table object is read afresh on every render here; nothing memoizes its functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<Row>({
    data: rows as Row[],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowKey,
    manualPagination: true,
    manualFiltering: true,
  });
  if (rows.length === 0) return <EmptyState title={empty} />;
  return (
    <div className="data-table">
      <table className="table">
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => {
                const header = cell.column.columnDef.header;
                return (
                  <td key={cell.id} data-label={typeof header === 'string' ? header : cell.column.id}>
                    {/* One box beside the card's label, however many parts the cell has, so it wraps rather than spills. */}
                    <div className="cell-value">{flexRender(cell.column.columnDef.cell, cell.getContext())}</div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
