import { transactionTypes, type TransactionView } from '@peeks/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { queryClient } from '../../lib/query.ts';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Money } from '../../ui/Money.tsx';
import { formatMoney } from '../../lib/money.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { ActionIcon } from './action-icons.tsx';
import { onLiveMessage, RECENT_ENTRIES, useRecentActivity, walletKeys } from './wallet-store.ts';
import { formatDateTime } from '../../lib/dates.ts';

const when = (iso: string, language: string) => formatDateTime(iso, language);

const isKnownKind = (type: string): type is (typeof transactionTypes)[number] =>
  (transactionTypes as readonly string[]).includes(type);

/** "Bob Birch (@bob)", "@bob", or a shop's display name. */
const partyName = ({ name, username }: NonNullable<TransactionView['counterparty']>) =>
  username === null ? name : name === username ? `@${username}` : `${name} (@${username})`;

/** What happened, with whom: "Transfer to Bob Birch (@bob)", "Sale from Maple Coffee". */
function ActivityTitle({ transaction }: { transaction: TransactionView }) {
  const { t } = useTranslation();
  const kind = isKnownKind(transaction.type) ? t(`wallet.activity.kinds.${transaction.type}`) : transaction.type;
  const { counterparty } = transaction;
  if (!counterparty) return <strong>{kind}</strong>;
  const name = partyName(counterparty);
  return (
    <strong>
      {transaction.debit_credit === 'D'
        ? t('wallet.activity.to', { kind, name })
        : t('wallet.activity.from', { kind, name })}
    </strong>
  );
}

/**
 * The other currency of a row that moved one for another: the dollars a card
 * paid for coins, or the price a quote converted; nothing when one currency did it all.
 */
function OtherSide({ transaction }: { transaction: TransactionView }) {
  const { funding, quote, currency } = transaction;
  let other: string | null = null;
  if (funding && funding.currency !== currency) other = formatMoney(funding.amount, funding.currency);
  else if (quote && quote.from_currency !== quote.to_currency)
    other =
      quote.from_currency === currency
        ? formatMoney(quote.amount_out, quote.to_currency)
        : formatMoney(quote.amount_in, quote.from_currency);
  return other && <small className="activity-other">{other}</small>;
}

/**
 * The dashboard's recent activity (issue 22): the last five transactions,
 * newest first, each with whom and how the wallet moved, read again
 * whenever the live feed reports a commit that touched the user's money,
 * so a payment received shows without a reload.
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
            action={<Link to="/add-fund">{t('wallet.card.add_money')}</Link>}
          />
        }
      >
        {(list) => (
          <ul className="activity-list" aria-label={t('wallet.activity.title')}>
            {list.map((transaction) => (
              <li key={transaction.tx_id} className="activity-item">
                <span className="activity-mark" aria-hidden="true">
                  {transaction.counterparty ? (
                    transaction.counterparty.name.slice(0, 1).toUpperCase()
                  ) : (
                    <ActionIcon name={transaction.debit_credit === 'D' ? 'send' : 'add'} />
                  )}
                </span>
                <span className="activity-what">
                  <ActivityTitle transaction={transaction} />
                  <small className="field-hint">
                    {when(transaction.entry_date, i18n.language)}
                    {transaction.funding && ` · ${transaction.funding.label}`}
                  </small>
                </span>
                <span className="activity-amounts">
                  <Money minor={transaction.wallet_change} currency={transaction.currency} signed />
                  <OtherSide transaction={transaction} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Card>
  );
}
