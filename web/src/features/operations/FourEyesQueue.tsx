import type { ColumnDef } from '@tanstack/react-table';
import { useRef, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Button, type ButtonVariant } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input } from '../../ui/fields.tsx';
import { session } from '../session/index.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { Loading } from './Loading.tsx';
import type { Loaded } from './use-load.ts';

/** What every request waiting for a second operator carries: who asked. */
interface FourEyesRequest {
  requested_by: string;
  requested_by_username: string | null;
}

/** The queue's words, already translated: each queue says them in its own terms. */
interface FourEyesWords {
  title: string;
  description: string;
  caption: string;
  empty: string;
  requestedBy: string;
  actions: string;
  /** Shown instead of the buttons on the operator's own request. */
  yours: string;
  approve: string;
  approveTitle: string;
  cancel: string;
  reject: string;
  rejectTitle: string;
  rejectReason: string;
}

interface FourEyesQueueProps<Loads, Row extends FourEyesRequest> {
  words: FourEyesWords;
  list: Loaded<Loads>;
  reload: () => void;
  rowsOf: (loaded: Loads) => readonly Row[];
  rowKey: (row: Row) => string;
  /** The columns that say what the request is; who asked and the buttons follow them. */
  columns: ColumnDef<Row>[];
  variants: { approve: ButtonVariant; reject: ButtonVariant };
  approveQuestion: (row: Row) => string;
  /** Approves `row` under the dialog's one `Idempotency-Key`, and says so. */
  approve: (row: Row, key: string) => Promise<void>;
  /** What the reject dialog shows of the request above its reason. */
  rejectSummary: (row: Row) => ReactNode;
  reject: (row: Row, reason: string, key: string) => Promise<void>;
}

type Dialog<Row> = { row: Row; id: string; words: FourEyesWords; onDone: () => void; onClose: () => void };

function ApproveDialog<Row>({
  row,
  words,
  question,
  approve,
  onDone,
  onClose,
}: Dialog<Row> & { question: string; approve: (row: Row, key: string) => Promise<void> }) {
  // One key for this dialog: a second click or a resend is the same approval, applied once.
  const key = useRef(crypto.randomUUID());
  return (
    <ConfirmDialog
      title={words.approveTitle}
      question={question}
      confirm={words.approve}
      cancel={words.cancel}
      onConfirm={async () => {
        await approve(row, key.current);
        onDone();
      }}
      onClose={onClose}
    />
  );
}

function RejectDialog<Row>({
  row,
  id,
  words,
  summary,
  reject,
  onDone,
  onClose,
}: Dialog<Row> & { summary: ReactNode; reject: (row: Row, reason: string, key: string) => Promise<void> }) {
  const [reason, setReason] = useState('');
  return (
    <ActionDialog
      title={words.rejectTitle}
      submitLabel={words.reject}
      danger
      // The same request keeps its key until the server settles it.
      request={{ id, reason }}
      act={(key) => reject(row, reason, key)}
      onDone={onDone}
      onClose={onClose}
    >
      <p>{summary}</p>
      <Input
        label={words.rejectReason}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
        }}
        required
      />
    </ActionDialog>
  );
}

/**
 * Requests waiting for a second finance operator (four eyes): large
 * corrections and bans of operators. Anyone but the operator who asked may
 * approve or reject each one; the server refuses the requester too, and the
 * buttons are not shown to them.
 */
export function FourEyesQueue<Loads, Row extends FourEyesRequest>(props: FourEyesQueueProps<Loads, Row>) {
  const { words, list, reload, rowsOf, rowKey, columns, variants } = props;
  const { user } = useSnapshot(session);
  const me = user === null ? null : `user-${String(user.user_id)}`;
  const [open, setOpen] = useState<{ kind: 'approve' | 'reject'; row: Row } | null>(null);
  const done = () => {
    setOpen(null);
    reload();
  };
  const close = () => {
    setOpen(null);
  };
  return (
    <Card title={words.title}>
      <p>{words.description}</p>
      <Loading loaded={list} retry={reload}>
        {(loaded) => (
          <DataTable
            caption={words.caption}
            rows={rowsOf(loaded)}
            rowKey={rowKey}
            empty={words.empty}
            columns={[
              ...columns,
              {
                header: words.requestedBy,
                cell: ({ row }) => row.original.requested_by_username ?? row.original.requested_by,
              },
              {
                header: words.actions,
                cell: ({ row }) =>
                  row.original.requested_by === me ? (
                    words.yours
                  ) : (
                    <div className="buttons">
                      <Button
                        variant={variants.approve}
                        onClick={() => {
                          setOpen({ kind: 'approve', row: row.original });
                        }}
                      >
                        {words.approve}
                      </Button>
                      <Button
                        variant={variants.reject}
                        onClick={() => {
                          setOpen({ kind: 'reject', row: row.original });
                        }}
                      >
                        {words.reject}
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </Loading>
      {open?.kind === 'approve' && (
        <ApproveDialog
          row={open.row}
          id={rowKey(open.row)}
          words={words}
          question={props.approveQuestion(open.row)}
          approve={props.approve}
          onDone={done}
          onClose={close}
        />
      )}
      {open?.kind === 'reject' && (
        <RejectDialog
          row={open.row}
          id={rowKey(open.row)}
          words={words}
          summary={props.rejectSummary(open.row)}
          reject={props.reject}
          onDone={done}
          onClose={close}
        />
      )}
    </Card>
  );
}
