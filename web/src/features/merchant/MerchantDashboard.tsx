import type { MerchantFigures } from '@peeks/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { formatMoney } from '../../lib/money.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { onLiveMessage, wallet } from '../wallet/index.ts';
import { refreshDashboard, useDashboard } from './merchant-api.ts';
import { dateOf, LoadedView, MerchantPanel, timeOf, TransactionTable } from './MerchantPanel.tsx';

const SalesChart = lazy(() => import('./SalesChart.tsx'));

function Figures({ title, figures }: { title: string; figures: readonly MerchantFigures[] }) {
  const { t } = useTranslation();
  return (
    <section className="figure-card" aria-label={title}>
      <h2>{title}</h2>
      {figures.length === 0 ? (
        <p className="empty">{t('merchant.dashboard.no_sales')}</p>
      ) : (
        figures.map((figure) => (
          <dl key={figure.currency} className="figures">
            <div>
              <dt>{t('merchant.dashboard.sales')}</dt>
              <dd>{formatMoney(figure.sales, figure.currency)}</dd>
            </div>
            <div>
              <dt>{t('merchant.dashboard.returns')}</dt>
              <dd>{formatMoney(figure.returns, figure.currency)}</dd>
            </div>
            <div>
              <dt>{t('merchant.dashboard.net')}</dt>
              <dd>{formatMoney(figure.net, figure.currency)}</dd>
            </div>
          </dl>
        ))
      )}
    </section>
  );
}

/**
 * The sidebar's Merchant Dashboard: today's and this month's sales, returns
 * and net, daily sales for 30 days, the next settlement and the last ones,
 * and recent payments, read again whenever the live feed says the
 * merchant's balance moved.
 */
export default function MerchantDashboard() {
  const { t } = useTranslation();
  // The live feed pushes the balance after every commit that touches the merchant's money: a new payment or return.
  const { live } = useSnapshot(wallet);
  const dashboard = useDashboard();
  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.type === 'balance') void refreshDashboard();
      }),
    [],
  );
  const [chosen, setChosen] = useState<string | null>(null);

  return (
    <MerchantPanel title={t('nav.merchant_dashboard')}>
      <LoadedView loaded={dashboard}>
        {(data) => {
          const currencies = [...new Set(data.daily.map((day) => day.currency))];
          const currency = currencies.find((each) => each === chosen) ?? currencies[0];
          return (
            <>
              <div className="figure-cards">
                <Figures title={t('merchant.dashboard.today')} figures={data.today} />
                <Figures title={t('merchant.dashboard.month')} figures={data.month} />
                <section className="figure-card" aria-label={t('merchant.dashboard.next_settlement')}>
                  <h2>{t('merchant.dashboard.next_settlement')}</h2>
                  <p>{timeOf(data.next_settlement.at)}</p>
                  {data.next_settlement.amounts.length === 0 ? (
                    <p className="empty">{t('merchant.dashboard.nothing_to_settle')}</p>
                  ) : (
                    <ul className="plain">
                      {data.next_settlement.amounts.map((each) => (
                        <li key={each.currency}>{formatMoney(each.amount, each.currency)}</li>
                      ))}
                    </ul>
                  )}
                </section>
              </div>

              <section aria-labelledby="daily-sales">
                <div className="panel-heading">
                  <h2 id="daily-sales">{t('merchant.dashboard.daily_sales')}</h2>
                  {currencies.length > 1 && (
                    <label>
                      {t('merchant.dashboard.currency')}{' '}
                      <select
                        value={currency}
                        onChange={(event) => {
                          setChosen(event.target.value);
                        }}
                      >
                        {currencies.map((each) => (
                          <option key={each}>{each}</option>
                        ))}
                      </select>
                    </label>
                  )}
                </div>
                {currency === undefined ? (
                  <p className="empty">{t('merchant.dashboard.no_sales')}</p>
                ) : (
                  <Suspense fallback={<PageLoader label={t('merchant.loading')} />}>
                    <SalesChart daily={data.daily} currency={currency} />
                  </Suspense>
                )}
              </section>

              <section aria-labelledby="recent-payments">
                <h2 id="recent-payments">
                  {t('merchant.dashboard.recent_payments')}{' '}
                  {live && <span className="badge live">{t('merchant.dashboard.live')}</span>}
                </h2>
                <TransactionTable
                  caption={t('merchant.dashboard.recent_payments')}
                  transactions={data.recent_payments}
                />
              </section>

              <section aria-labelledby="last-settlements">
                <h2 id="last-settlements">{t('merchant.dashboard.last_settlements')}</h2>
                {data.settlements.length === 0 ? (
                  <p className="empty">{t('merchant.settlements.none')}</p>
                ) : (
                  <ul className="plain">
                    {data.settlements.map((each) => (
                      <li key={each.tx_id}>
                        <Link to={`/merchant/settlements?batch=${encodeURIComponent(each.batch_id)}`}>
                          {dateOf(each.entry_date)}: {formatMoney(each.amount, each.currency)}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </>
          );
        }}
      </LoadedView>
    </MerchantPanel>
  );
}
