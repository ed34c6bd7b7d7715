import type { ColumnDef } from '@tanstack/react-table';
import { Button, type ButtonVariant } from '../../ui/Button.tsx';

/** A step an operator can take on a work list's row (clear, reject, process, fail, resolve): the button that opens its dialog. */
export interface RowAction<Kind extends string> {
  kind: Kind;
  label: string;
  variant: ButtonVariant;
}

/** A work list's actions column: a button for each step, telling `onAction` which step was chosen on which row. */
export function actionsColumn<Row, Kind extends string>(
  header: string,
  actions: readonly RowAction<Kind>[],
  onAction: (kind: Kind, row: Row) => void,
): ColumnDef<Row> {
  return {
    header,
    cell: ({ row }) => (
      <div className="buttons">
        {actions.map((action) => (
          <Button
            key={action.kind}
            variant={action.variant}
            onClick={() => {
              onAction(action.kind, row.original);
            }}
          >
            {action.label}
          </Button>
        ))}
      </div>
    ),
  };
}
