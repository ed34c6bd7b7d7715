import { ledgerListResponse, ledgerTypeLabel, type LedgerEntry } from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { callApi } from '../../lib/api.ts';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Money } from '../../ui/Money.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { onLiveMessage } from './wallet-store.ts';

/** The dashboard shows this many of the newest ledger entries. */
export const RECENT_ENTRIES = 5;

const when = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * The dashboard's recent activity (issue 22): the last five ledger entries,
 * newest first, read again whenever the live feed reports a commit that
 * touched the user's money, so a payment received shows without a reload.
 */
export function RecentActivity() {
  const { t, i18n } = useTranslation();
  const [entries, setEntries] = useState<{ version: number; list: LedgerEntry[] | 'failed' } | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type === 'activity') setVersion((each) => each + 1);
      }),
    [],
  );
  useEffect(() => {
    const controller = new AbortController();
    callApi('/account/ledger', ledgerListResponse, {
      body: { offset: 0, limit: RECENT_ENTRIES },
      signal: controller.signal,
    }).then(
      ({ ledgers }) => {
        setEntries({ version, list: ledgers });
      },
      () => {
        if (!controller.signal.aborted) setEntries({ version, list: 'failed' });
      },
    );
    return () => {
      controller.abort();
    };
  }, [version]);

  return (
    <Card
      title={t('wallet.activity.title')}
      className="recent-activity"
      actions={<Link to="/transaction">{t('wallet.activity.view_all')}</Link>}
    >
      {entries === null ? (
        <Skeleton lines={RECENT_ENTRIES} label={t('wallet.activity.loading')} />
      ) : entries.list === 'failed' ? (
        <p role="alert">{t('wallet.activity.failed')}</p>
      ) : entries.list.length === 0 ? (
        <EmptyState
          title={t('wallet.activity.empty')}
          action={<Link to="/add-fund">{t('wallet.tiles.add_funds')}</Link>}
        />
      ) : (
        <ul className="activity-list" aria-label={t('wallet.activity.title')}>
          {entries.list.map((entry) => (
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
    </Card>
  );
}
