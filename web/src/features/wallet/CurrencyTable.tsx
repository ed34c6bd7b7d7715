import type { Balance, Currency } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { Tooltip } from '../../ui/Tooltip.tsx';

/** Row labels of the per-currency table (spec §4): Coin for CON, Impressions for IMP, Cash (currency) otherwise. */
function useRowLabel() {
  const { t } = useTranslation();
  return (currency: Currency) => {
    if (currency === 'CON') return t('wallet.table.coin');
    if (currency === 'IMP') return t('wallet.table.impressions');
    return t('wallet.table.cash', { currency });
  };
}

/** Coins first, the product's own money; then cash; impressions last. */
const ROW_ORDER: readonly Currency[] = ['CON', 'USD', 'CAD', 'IMP'];

/**
 * Balance, Holds and Available of every open wallet; the coin row's balance
 * opens the coin breakdown. On a phone each row stacks, its cells labelled
 * by `data-label`, so no figure has to wrap.
 */
export function CurrencyTable({
  balances,
  onCoinBreakdown,
}: {
  balances: readonly Balance['balances'][number][];
  onCoinBreakdown: () => void;
}) {
  const { t } = useTranslation();
  const rowLabel = useRowLabel();
  return (
    <table className="table currency-table">
      <caption>{t('wallet.table.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('wallet.table.currency')}</th>
          <th scope="col" className="amount">
            {t('wallet.table.balance')}
          </th>
          <th scope="col" className="amount">
            <Tooltip text={t('wallet.hold_help')}>
              <span tabIndex={0} className="help">
                {t('wallet.table.holds')}{' '}
                <span className="help-mark" aria-hidden="true">
                  ?
                </span>
              </span>
            </Tooltip>
          </th>
          <th scope="col" className="amount">
            {t('wallet.table.available')}
          </th>
        </tr>
      </thead>
      <tbody>
        {[...balances]
          .sort((a, b) => ROW_ORDER.indexOf(a.currency) - ROW_ORDER.indexOf(b.currency))
          .map((line) => (
            <tr key={line.currency}>
              <th scope="row">{rowLabel(line.currency)}</th>
              <td className="amount" data-label={t('wallet.table.balance')}>
                {line.combined ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={onCoinBreakdown}
                    aria-label={t('wallet.open_coin_breakdown', { amount: formatMoney(line.balance, line.currency) })}
                  >
                    {formatMoney(line.balance, line.currency)}
                  </button>
                ) : (
                  formatMoney(line.balance, line.currency)
                )}
              </td>
              <td className="amount" data-label={t('wallet.table.holds')}>
                {formatMoney(line.available_balance - line.withdrawable_balance, line.currency)}
              </td>
              <td className="amount" data-label={t('wallet.table.available')}>
                {formatMoney(line.available_balance, line.currency)}
              </td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
