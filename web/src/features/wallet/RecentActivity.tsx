import { ledgerTypeLabel } from '@peeks/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { queryClient } from '../../lib/query.ts';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Money } from '../../ui/Money.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { onLiveMessage, RECENT_ENTRIES, useRecentActivity, walletKeys } from './wallet-store.ts';

const when = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * The dashboard's recent activity (issue 22): the last five ledger entries,
 * newest first, read again whenever the live feed reports a commit that
 * touched the user's money, so a payment received shows without a reload.
 */
export function RecentActivity() {
  const { t, i18n } = useTranslation();
  const entries = useRecentActivity();

  // A commit that touched the user's money: the newest entries are read again.
  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type === 'activity') void queryClient.invalidateQueries({ queryKey: walletKeys.recent() });
      }),
    [],
  );

  return (
    <Card
      title={t('wallet.activity.title')}
      className="recent-activity"
      actions={<Link to="/transaction">{t('wallet.activity.view_all')}</Link>}
    >
      <QueryView
        query={entries}
        loading={<Skeleton lines={RECENT_ENTRIES} label={t('wallet.activity.loading')} />}
        failed={() => <p role="alert">{t('wallet.activity.failed')}</p>}
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState
            title={t('wallet.activity.empty')}
            action={<Link to="/add-fund">{t('wallet.tiles.add_funds')}</Link>}
          />
        }
      >
        {(list) => (
          <ul className="activity-list" aria-label={t('wallet.activity.title')}>
            {list.map((entry) => (
              <li key={entry.ledger_id} className="activity-item">
                <span className="activity-what">
                  <strong>{ledgerTypeLabel(entry.type)}</strong>
                  <small className="field-hint">{when(entry.entry_date, i18n.language)}</small>
                </span>
                <Money
                  minor={entry.debit_credit === 'D' ? -entry.amount : entry.amount}
                  currency={entry.currency}
                  signed
                />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Card>
  );
}
