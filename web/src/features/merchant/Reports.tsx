import { reportQuery } from '@peeks/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportCsvUrl, useReport } from './merchant-api.ts';
import { LoadedView, MerchantPanel, timeOf } from './MerchantPanel.tsx';
import { MerchantTable } from './MerchantTable.tsx';

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
            <MerchantTable
              label={t('merchant.reports.totals')}
              captioned
              rows={data.totals}
              keyOf={(total) => total.currency}
              columns={[
                { heading: t('merchant.reports.currency'), cell: (total) => total.currency },
                { heading: t('merchant.dashboard.sales'), amountOf: (total) => total.sales },
                { heading: t('merchant.dashboard.returns'), amountOf: (total) => total.returns },
                { heading: t('merchant.dashboard.net'), amountOf: (total) => total.net },
                { heading: t('merchant.reports.settled'), amountOf: (total) => total.settled },
              ]}
            />
          )}
          {data.lines.length > 0 && (
            <MerchantTable
              label={t('merchant.reports.lines')}
              captioned
              rows={data.lines}
              keyOf={(line) => line.tx_id}
              columns={[
                { heading: t('merchant.columns.date'), cell: (line) => timeOf(line.entry_date) },
                { heading: t('merchant.columns.type'), cell: (line) => t(`merchant.types.${line.type}`) },
                { heading: t('merchant.columns.customer'), cell: (line) => line.counterparty?.name ?? '' },
                { heading: t('merchant.columns.amount'), amountOf: (line) => line.amount },
                { heading: t('merchant.return.reason'), cell: (line) => line.reason ?? '' },
              ]}
            />
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
