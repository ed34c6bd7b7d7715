import { currencyCode, type LedgerVerification, type OperationsOverview } from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '../../ui/Button.tsx';
import { Card, StatTile } from '../../ui/Card.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Money } from '../../ui/Money.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Loading } from './Loading.tsx';
import { operationsApi } from './operations-api.ts';
import { useLoad } from './use-load.ts';
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

function Chart({ children, label }: { children: React.ReactElement; label: string }) {
  return (
    <figure className="chart" aria-label={label}>
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
  const holds = overview.holds_releasing.map((row) => ({
    hour: `${row.hour.slice(11, 16)} ${row.currency}`,
    amount: row.amount / 100,
  }));
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
                <Bar key={type} dataKey={type} stackId="volume" fill={colour(index)} />
              ))}
            </BarChart>
          </Chart>
        )}
      </Card>
      <Card title={t('operations.overview.deposits')}>
        <Chart label={t('operations.overview.deposits')}>
          <BarChart data={deposits}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="state" />
            <YAxis allowDecimals={false} width={32} />
            <Tooltip />
            <Legend />
            {methods.map((method, index) => (
              <Bar key={method} dataKey={method} stackId="deposits" fill={colour(index)} />
            ))}
          </BarChart>
        </Chart>
      </Card>
      <Card title={t('operations.overview.holds')}>
        {holds.length === 0 ? (
          <EmptyState title={t('operations.overview.no_holds')} />
        ) : (
          <Chart label={t('operations.overview.holds')}>
            <BarChart data={holds}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="hour" fontSize={11} />
              <YAxis width={40} />
              <Tooltip />
              <Bar dataKey="amount" fill={colour(0)} />
            </BarChart>
          </Chart>
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
  const [run, setRun] = useState<LedgerVerification | null>(null);
  const [starting, setStarting] = useState(false);
  useEffect(() => {
    void operationsApi.verification().then((answer) => {
      setRun(answer.verification);
    });
  }, []);
  useEffect(() => {
    if (run?.state !== 'running') return;
    const timer = setTimeout(() => {
      void operationsApi.verification().then((answer) => {
        setRun(answer.verification);
      });
    }, 500);
    return () => {
      clearTimeout(timer);
    };
  }, [run]);
  const start = async () => {
    setStarting(true);
    try {
      setRun((await operationsApi.startVerification()).verification);
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
  return (
    <>
      <PageHeader title={t('operations.nav.overview')} description={t('operations.overview.description')} />
      <Card title={t('operations.overview.balances')}>
        <Loading loaded={balances} retry={reloadBalances}>
          {(sheet) => (
            <>
              <p className="help">
                {sheet.as_of
                  ? t('operations.overview.as_of', { time: formatDateTime(sheet.as_of) })
                  : t('operations.overview.never_caught_up')}
              </p>
              <div className="tiles">
                {sheet.balances.map((balance) => (
                  <StatTile
                    key={balance.account_id}
                    label={balance.account_id.replace(/^platform:/, '')}
                    value={<BalanceFigure minor={balance.balance} currency={balance.currency} />}
                  />
                ))}
              </div>
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
