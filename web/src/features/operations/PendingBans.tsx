import type { BanRequest } from '@peeks/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Input } from '../../ui/fields.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';

type Decide = { ban: BanRequest; onDone: () => void; onClose: () => void };

function ApproveDialog({ ban, onDone, onClose }: Decide) {
  const { t } = useTranslation();
  // One key for this dialog: a second click or a resend is the same approval, applied once.
  const key = useRef(crypto.randomUUID());
  return (
    <ConfirmDialog
      title={t('operations.people.bans.approve_title')}
      question={t('operations.people.bans.approve_question', {
        username: ban.username,
        reason: ban.reason,
        requester: ban.requested_by_username ?? ban.requested_by,
      })}
      confirm={t('operations.people.bans.approve')}
      cancel={t('operations.people.bans.cancel')}
      onConfirm={async () => {
        await operationsApi.approveBan(ban.ban_id, key.current);
        toast(t('operations.people.bans.approved', { username: ban.username }));
        onDone();
      }}
      onClose={onClose}
    />
  );
}

function RejectDialog({ ban, onDone, onClose }: Decide) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const request = { ban_id: ban.ban_id, reason };
  return (
    <ActionDialog
      title={t('operations.people.bans.reject_title')}
      submitLabel={t('operations.people.bans.reject')}
      danger
      request={request}
      act={async (key) => {
        await operationsApi.rejectBan(request, key);
        toast(t('operations.people.bans.rejected'));
      }}
      onDone={onDone}
      onClose={onClose}
    >
      <p>
        {ban.username} · {ban.reason}
      </p>
      <Input
        label={t('operations.people.bans.reject_reason')}
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
 * Bans of finance operators, waiting for a second operator (as large
 * corrections do): anyone but the operator who asked may approve (ban,
 * ending their sessions) or reject each one. The server refuses the
 * requester too; the buttons are not shown to them.
 */
export function PendingBans() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const me = user === null ? null : `user-${String(user.user_id)}`;
  const [list, reload] = useLoad(operationsApi.pendingBans);
  const [open, setOpen] = useState<{ kind: 'approve' | 'reject'; ban: BanRequest } | null>(null);
  const done = () => {
    setOpen(null);
    reload();
  };
  const close = () => {
    setOpen(null);
  };
  return (
    <Card title={t('operations.people.bans.title')}>
      <p>{t('operations.people.bans.description')}</p>
      <Loading loaded={list} retry={reload}>
        {({ bans }) => (
          <DataTable
            caption={t('operations.people.bans.table')}
            rows={bans}
            rowKey={(row) => row.ban_id}
            empty={t('operations.people.bans.empty')}
            columns={[
              { header: t('operations.people.bans.who'), cell: ({ row }) => row.original.username },
              { header: t('operations.people.reason'), cell: ({ row }) => row.original.reason },
              {
                header: t('operations.people.bans.requested_by'),
                cell: ({ row }) => row.original.requested_by_username ?? row.original.requested_by,
              },
              {
                header: t('operations.people.bans.actions'),
                cell: ({ row }) =>
                  row.original.requested_by === me ? (
                    t('operations.people.bans.yours')
                  ) : (
                    <div className="buttons">
                      <Button
                        variant="danger"
                        onClick={() => {
                          setOpen({ kind: 'approve', ban: row.original });
                        }}
                      >
                        {t('operations.people.bans.approve')}
                      </Button>
                      <Button
                        variant="secondary"
                        onClick={() => {
                          setOpen({ kind: 'reject', ban: row.original });
                        }}
                      >
                        {t('operations.people.bans.reject')}
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </Loading>
      {open?.kind === 'approve' && <ApproveDialog ban={open.ban} onDone={done} onClose={close} />}
      {open?.kind === 'reject' && <RejectDialog ban={open.ban} onDone={done} onClose={close} />}
    </Card>
  );
}
