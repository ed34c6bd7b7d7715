import type { MerchantTransaction } from '@peeks/contracts';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatMoney } from '../../lib/money.ts';
import { ServerErrors } from '../../ui/feedback.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { isMerchant, session } from '../session/index.ts';
import './merchant.css';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { merchantTexts } from './i18n.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';

addLaterTexts(merchantTexts);

export type MerchantPermission = 'VIEW_SALES' | 'RETURN_SALES';

/** Whether the member holds `permission` on the merchant the session acts for. */
export function useMerchantPermission(permission: MerchantPermission): boolean {
  const { user, merchant } = useSnapshot(session);
  return isMerchant(user) && (merchant?.perms.includes(permission) ?? false);
}

/**
 * A merchant screen's frame: its title, and its content only for a member of
 * the current merchant holding VIEW_SALES; anyone else reads why not.
 */
export function MerchantPanel({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const allowed = useMerchantPermission('VIEW_SALES');
  const { merchant } = useSnapshot(session);
  return (
    <section className="panel merchant-panel" aria-labelledby={titleId}>
      <div className="panel-heading">
        <div>
          <h1 id={titleId}>{title}</h1>
          {merchant && <p className="merchant-of">{merchant.name}</p>}
        </div>
        {allowed && actions}
      </div>
      {allowed ? children : <p role="alert">{t('merchant.not_allowed')}</p>}
    </section>
  );
}

/** A merchant read's states, in the merchant space's words. */
export function LoadedView<T>({
  loaded,
  children,
}: {
  loaded: ComponentProps<typeof QueryView<T>>['query'];
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <QueryView
      query={loaded}
      loading={<PageLoader label={t('merchant.loading')} />}
      failed={(texts) => <ServerErrors texts={texts} />}
    >
      {children}
    </QueryView>
  );
}

export const dateOf = (iso: string) => formatDate(iso);
export const timeOf = (iso: string) => formatDateTime(iso);

/** Payments as the merchant sees them: when, what, how much, whether refunded, and an action per row. */
export function TransactionTable({
  caption,
  transactions,
  action,
}: {
  caption: string;
  transactions: readonly MerchantTransaction[];
  action?: (transaction: MerchantTransaction) => ReactNode;
}) {
  const { t } = useTranslation();
  if (transactions.length === 0) return <p className="empty">{t('merchant.empty')}</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="table merchant-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('merchant.columns.date')}</th>
            <th scope="col">{t('merchant.columns.type')}</th>
            <th scope="col" className="amount">
              {t('merchant.columns.amount')}
            </th>
            <th scope="col">{t('merchant.columns.state')}</th>
            {action && <th scope="col">{t('merchant.columns.action')}</th>}
          </tr>
        </thead>
        <tbody>
          {transactions.map((transaction) => (
            <tr key={transaction.tx_id} data-tx-id={transaction.tx_id}>
              <td>{timeOf(transaction.entry_date)}</td>
              <td>
                {t(`merchant.types.${transaction.type}`, { defaultValue: transaction.type })}
                {/* A space in the text too: a screen reader reads "Sale Ann Oak", not "SaleAnn Oak". */}
                {transaction.counterparty && (
                  <>
                    {' '}
                    <span className="counterparty">{transaction.counterparty.name}</span>
                  </>
                )}
                {transaction.refunded && <span className="badge refunded">{t('merchant.refunded')}</span>}
                {transaction.partially_refunded && (
                  <span className="badge refunded">
                    {t('merchant.partially_refunded', {
                      amount: formatMoney(transaction.refunded_amount, transaction.currency),
                    })}
                  </span>
                )}
                {transaction.reason !== null && <span className="reason">{transaction.reason}</span>}
              </td>
              <td className={`amount ${transaction.debit_credit === 'D' ? 'debit' : 'credit'}`}>
                {transaction.debit_credit === 'D' ? '−' : ''}
                {formatMoney(transaction.amount, transaction.currency)}
              </td>
              <td>{t(`merchant.states.${transaction.state}`, { defaultValue: transaction.state })}</td>
              {action && <td>{action(transaction)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
