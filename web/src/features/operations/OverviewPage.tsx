import {
  currencyCode,
  minorUnitsPerUnit,
  type Currency,
  type LedgerVerification,
  type OperationsOverview,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { i18n } from '../../i18n/i18n.ts';
import { queryClient } from '../../lib/query.ts';
import { formatMoney } from '../../lib/money.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useDataLabel } from './labels.ts';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { operationsKeys, useLoad } from './use-load.ts';
import { formatDateTime } from '../../lib/dates.ts';

/** Series colours from the design tokens, so the charts follow light and dark. */
const palette = [
  'var(--color-brand)',
  'var(--color-success)',
  'var(--color-warning)',
  'var(--color-danger)',
  'var(--color-info)',
  'var(--color-muted)',
] as const;
const colour = (index: number): string => palette[index % palette.length] ?? 'var(--color-brand)';

/** One row per day of the 30, a count per movement type: the chart's shape (days without movements are zero). */
export function volumeRows(overview: Pick<OperationsOverview, 'days' | 'daily_volume'>, today: Date) {
  const types = [...new Set(overview.daily_volume.map((row) => row.type))].sort();
  const rows: Record<string, string | number>[] = [];
  for (let back = overview.days - 1; back >= 0; back--) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back));
    const key = day.toISOString().slice(0, 10);
    const row: Record<string, string | number> = { day: key.slice(5) };
    for (const type of types)
      row[type] = overview.daily_volume
        .filter((each) => each.day === key && each.type === type)
        .reduce((sum, each) => sum + each.count, 0);
    rows.push(row);
  }
  return { types, rows };
}

/** Holds releasing per currency, each an hour's amount in minor units: one series (and axis) per currency. */
export function holdsByCurrency(holds: OperationsOverview['holds_releasing']) {
  const currencies = [...new Set(holds.map((row) => row.currency))].sort();
  return currencies.flatMap((code) => {
    const known = currencyCode.safeParse(code);
    if (!known.success) return [];
    const rows = holds
      .filter((row) => row.currency === code)
      .map((row) => ({ hour: row.hour.slice(11, 16), amount: row.amount }));
    return [{ currency: known.data, rows }];
  });
}

/** An axis tick in units of the currency, without its name (the axis carries it once). */
const unitsOf = (minor: number, currency: Currency) =>
  new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(minor / minorUnitsPerUnit[currency]);

function Chart({ children, label, caption }: { children: React.ReactElement; label: string; caption?: string }) {
  return (
    <figure className="chart" aria-label={label}>
      {caption && <figcaption>{caption}</figcaption>}
      <ResponsiveContainer width="100%" height={220}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

function Charts({ overview }: { overview: OperationsOverview }) {
  const { t } = useTranslation();
  const volume = volumeRows(overview, new Date());
  const deposits = [...new Set(overview.deposits_by_state.map((row) => row.state))].map((state) => ({
    state,
    ...Object.fromEntries(
      overview.deposits_by_state.filter((row) => row.state === state).map((row) => [row.method, row.count]),
    ),
  }));
  const methods = [...new Set(overview.deposits_by_state.map((row) => row.method))];
  const holds = holdsByCurrency(overview.holds_releasing);
  const label = useDataLabel();
  return (
    <div className="chart-grid">
      <Card title={t('operations.overview.volume')}>
        {overview.daily_volume.length === 0 ? (
          <EmptyState title={t('operations.overview.no_volume')} />
        ) : (
          <Chart label={t('operations.overview.volume')}>
            <BarChart data={volume.rows}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" fontSize={11} />
              <YAxis allowDecimals={false} width={32} />
              <Tooltip />
              <Legend />
              {volume.types.map((type, index) => (
                <Bar key={type} dataKey={type} name={label('types', type)} stackId="volume" fill={colour(index)} />
              ))}
            </BarChart>
          </Chart>
        )}
      </Card>
      <Card title={t('operations.overview.deposits')}>
        <Chart label={t('operations.overview.deposits')}>
          <BarChart data={deposits}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="state" tickFormatter={(state: string) => label('states', state)} />
            <YAxis allowDecimals={false} width={32} />
            <Tooltip />
            <Legend />
            {methods.map((method, index) => (
              <Bar
                key={method}
                dataKey={method}
                name={label('methods', method)}
                stackId="deposits"
                fill={colour(index)}
              />
            ))}
          </BarChart>
        </Chart>
      </Card>
      <Card title={t('operations.overview.holds')}>
        {holds.length === 0 ? (
          <EmptyState title={t('operations.overview.no_holds')} />
        ) : (
          // One chart per currency: coins and dollars never share an axis.
          holds.map(({ currency, rows }) => {
            const name = currency === 'USD' || currency === 'CAD' ? currency : t(`currencies.${currency}`);
            const title = t('operations.overview.holds_chart', { currency: name });
            return (
              <Chart key={currency} label={title} caption={title}>
                <BarChart data={rows}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="hour" fontSize={11} />
                  <YAxis
                    width={56}
                    fontSize={11}
                    tickFormatter={(minor: number) => unitsOf(minor, currency)}
                    label={{ value: name, angle: -90, position: 'insideLeft', fontSize: 11 }}
                  />
                  <Tooltip formatter={(minor) => formatMoney(Number(minor), currency)} />
                  <Bar dataKey="amount" name={name} fill={colour(0)} />
                </BarChart>
              </Chart>
            );
          })
        )}
      </Card>
      <Card title={t('operations.overview.webhooks')}>
        {overview.webhook_deliveries.length === 0 ? (
          <EmptyState title={t('operations.overview.no_webhooks')} />
        ) : (
          <Chart label={t('operations.overview.webhooks')}>
            <BarChart data={overview.webhook_deliveries.map((row) => ({ ...row, day: row.day.slice(5) }))}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" fontSize={11} />
              <YAxis allowDecimals={false} width={32} />
              <Tooltip />
              <Legend />
              <Bar dataKey="delivered" name={t('operations.overview.delivered')} stackId="w" fill={colour(1)} />
              <Bar dataKey="failed" name={t('operations.overview.failed')} stackId="w" fill={colour(3)} />
              <Bar dataKey="pending" name={t('operations.overview.pending')} stackId="w" fill={colour(2)} />
            </BarChart>
          </Chart>
        )}
      </Card>
    </div>
  );
}

const seconds = (run: LedgerVerification) =>
  run.started_at && run.finished_at
    ? ((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000).toFixed(1)
    : '0';

/** The last ledger:verify run, Run, and its progress polled twice a second while it runs. */
function Verification() {
  const { t } = useTranslation();
  const verification = useQuery({
    queryKey: operationsKeys.read('verification'),
    queryFn: async () => (await operationsApi.verification()).verification,
    // While a run goes on, its progress is read twice a second.
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 500 : false),
  });
  const run = verification.data ?? null;
  const [starting, setStarting] = useState(false);
  const start = async () => {
    setStarting(true);
    try {
      queryClient.setQueryData(
        operationsKeys.read('verification'),
        (await operationsApi.startVerification()).verification,
      );
    } finally {
      setStarting(false);
    }
  };
  const started = run?.started_at ? formatDateTime(run.started_at) : '';
  return (
    <Card
      title={t('operations.overview.verify')}
      actions={
        <Button variant="primary" busy={starting || run?.state === 'running'} onClick={() => void start()}>
          {t('operations.overview.verify_run')}
        </Button>
      }
    >
      <div role="status" aria-live="polite" className="verify-status">
        {run === null || run.state === 'never run' ? (
          <p>{t('operations.overview.verify_never')}</p>
        ) : run.state === 'running' ? (
          <>
            <p>
              {t('operations.overview.verify_running', {
                stage: run.progress?.stage ?? 'chains',
                replayed: run.progress?.events_replayed ?? 0,
                total: run.progress?.events_total ?? 0,
              })}
            </p>
            <progress max={run.progress?.events_total ?? 1} value={run.progress?.events_replayed ?? 0} />
          </>
        ) : run.state === 'crashed' ? (
          <p className="verify-failed">{t('operations.overview.verify_crashed')}</p>
        ) : (
          <p className={run.ok ? 'verify-ok' : 'verify-failed'}>
            {t(run.ok ? 'operations.overview.verify_ok' : 'operations.overview.verify_failed', {
              started,
              seconds: seconds(run),
            })}
          </p>
        )}
        {run?.ok === false || run?.state === 'crashed' ? <pre className="verify-report">{run.report}</pre> : null}
      </div>
    </Card>
  );
}

function BalanceFigure({ minor, currency }: { minor: number; currency: string }) {
  const known = currencyCode.safeParse(currency);
  return known.success ? <Money minor={minor} currency={known.data} signed /> : <>{minor}</>;
}

export default function OverviewPage() {
  const { t } = useTranslation();
  const [overview, reloadOverview] = useLoad(operationsApi.overview);
  const [balances, reloadBalances] = useLoad(operationsApi.platformBalances);
  const label = useDataLabel();
  return (
    <>
      <PageHeader title={t('operations.nav.overview')} description={t('operations.overview.description')} />
      <Card title={t('operations.overview.balances')}>
        <Loading loaded={balances} retry={reloadBalances}>
          {(sheet) => (
            <>
              <p className="console-note">
                {sheet.as_of
                  ? t('operations.overview.as_of', { time: formatDateTime(sheet.as_of) })
                  : t('operations.overview.never_caught_up')}
              </p>
              <dl className="balance-sheet">
                {sheet.balances.map((balance) => {
                  const kind = balance.account_id.split(':')[1] ?? balance.account_id;
                  return (
                    <div key={balance.account_id}>
                      <dt>{label('accounts', kind)}</dt>
                      <dd>
                        <BalanceFigure minor={balance.balance} currency={balance.currency} />
                      </dd>
                    </div>
                  );
                })}
              </dl>
            </>
          )}
        </Loading>
      </Card>
      <Verification />
      <Loading loaded={overview} retry={reloadOverview}>
        {(value) => <Charts overview={value} />}
      </Loading>
    </>
  );
}
