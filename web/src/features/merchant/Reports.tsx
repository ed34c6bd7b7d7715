import { reportQuery } from '@peeks/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money.ts';
import { reportCsvUrl, useReport } from './merchant-api.ts';
import { LoadedView, MerchantPanel, timeOf } from './MerchantPanel.tsx';

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

function ReportOf({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const report = useReport(from, to);
  return (
    <LoadedView loaded={report}>
      {(data) => (
        <>
          {data.totals.length === 0 ? (
            <p className="empty">{t('merchant.reports.nothing')}</p>
          ) : (
            <div className="table-scroll" tabIndex={0} role="region" aria-label={t('merchant.reports.totals')}>
              <table className="table merchant-table">
                <caption>{t('merchant.reports.totals')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('merchant.reports.currency')}</th>
                    <th scope="col" className="amount">
                      {t('merchant.dashboard.sales')}
                    </th>
                    <th scope="col" className="amount">
                      {t('merchant.dashboard.returns')}
                    </th>
                    <th scope="col" className="amount">
                      {t('merchant.dashboard.net')}
                    </th>
                    <th scope="col" className="amount">
                      {t('merchant.reports.settled')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.totals.map((total) => (
                    <tr key={total.currency}>
                      <td>{total.currency}</td>
                      <td className="amount">{formatMoney(total.sales, total.currency)}</td>
                      <td className="amount">{formatMoney(total.returns, total.currency)}</td>
                      <td className="amount">{formatMoney(total.net, total.currency)}</td>
                      <td className="amount">{formatMoney(total.settled, total.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data.lines.length > 0 && (
            <div className="table-scroll" tabIndex={0} role="region" aria-label={t('merchant.reports.lines')}>
              <table className="table merchant-table">
                <caption>{t('merchant.reports.lines')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('merchant.columns.date')}</th>
                    <th scope="col">{t('merchant.columns.type')}</th>
                    <th scope="col" className="amount">
                      {t('merchant.columns.amount')}
                    </th>
                    <th scope="col">{t('merchant.return.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((line) => (
                    <tr key={line.tx_id}>
                      <td>{timeOf(line.entry_date)}</td>
                      <td>{t(`merchant.types.${line.type}`)}</td>
                      <td className="amount">{formatMoney(line.amount, line.currency)}</td>
                      <td>{line.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </LoadedView>
  );
}

/** The sidebar's Reports: sales, returns and settlements over a chosen period of UTC days, and the same as CSV. */
export default function Reports() {
  const { t } = useTranslation();
  const formId = useId();
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(today);
  const [shown, setShown] = useState({ from: monthStart(), to: today() });
  const checked = reportQuery.safeParse({ from, to });
  const problem = checked.success ? null : (checked.error.issues[0]?.message ?? null);
  return (
    <MerchantPanel
      title={t('nav.reports')}
      actions={
        <a className="button" href={reportCsvUrl(shown.from, shown.to)} download>
          {t('merchant.reports.csv')}
        </a>
      }
    >
      <form
        className="report-period"
        aria-labelledby={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (checked.success) setShown(checked.data);
        }}
      >
        <h2 id={formId} className="visually-hidden">
          {t('merchant.reports.period')}
        </h2>
        <label>
          {t('merchant.reports.from')}
          <input
            type="date"
            value={from}
            aria-invalid={problem !== null}
            onChange={(event) => {
              setFrom(event.target.value);
            }}
          />
        </label>
        <label>
          {t('merchant.reports.to')}
          <input
            type="date"
            value={to}
            aria-invalid={problem !== null}
            aria-describedby={`${formId}-error`}
            onChange={(event) => {
              setTo(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="button primary">
          {t('merchant.reports.show')}
        </button>
        <p id={`${formId}-error`} className="field-error" aria-live="polite">
          {problem}
        </p>
      </form>
      <ReportOf from={shown.from} to={shown.to} />
    </MerchantPanel>
  );
}
