import type { BanRequest } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { toast } from '../../ui/toasts.tsx';
import { FourEyesQueue } from './FourEyesQueue.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';

/**
 * Bans of finance operators, waiting for a second operator (as large
 * corrections do): approving bans them and ends their sessions.
 */
export function PendingBans() {
  const { t } = useTranslation();
  const [list, reload] = useLoad(operationsApi.pendingBans);
  return (
    <FourEyesQueue
      words={{
        title: t('operations.people.bans.title'),
        description: t('operations.people.bans.description'),
        caption: t('operations.people.bans.table'),
        empty: t('operations.people.bans.empty'),
        requestedBy: t('operations.people.bans.requested_by'),
        actions: t('operations.people.bans.actions'),
        yours: t('operations.people.bans.yours'),
        approve: t('operations.people.bans.approve'),
        approveTitle: t('operations.people.bans.approve_title'),
        cancel: t('operations.people.bans.cancel'),
        reject: t('operations.people.bans.reject'),
        rejectTitle: t('operations.people.bans.reject_title'),
        rejectReason: t('operations.people.bans.reject_reason'),
      }}
      list={list}
      reload={reload}
      rowsOf={({ bans }) => bans}
      rowKey={(ban: BanRequest) => ban.ban_id}
      columns={[
        { header: t('operations.people.bans.who'), cell: ({ row }) => row.original.username },
        { header: t('operations.people.reason'), cell: ({ row }) => row.original.reason },
      ]}
      variants={{ approve: 'danger', reject: 'secondary' }}
      approveQuestion={(ban) =>
        t('operations.people.bans.approve_question', {
          username: ban.username,
          reason: ban.reason,
          requester: ban.requested_by_username ?? ban.requested_by,
        })
      }
      approve={async (ban, key) => {
        await operationsApi.approveBan(ban.ban_id, key);
        toast(t('operations.people.bans.approved', { username: ban.username }));
      }}
      rejectSummary={(ban) => `${ban.username} · ${ban.reason}`}
      reject={async (ban, reason, key) => {
        await operationsApi.rejectBan({ ban_id: ban.ban_id, reason }, key);
        toast(t('operations.people.bans.rejected'));
      }}
    />
  );
}
