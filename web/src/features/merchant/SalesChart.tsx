import type { MerchantDashboard } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/money.ts';

/**
 * Daily sales for the last 30 days in one currency, as bars (recharts). Its
 * own chunk: the dashboard loads it lazily, so recharts never weighs on the
 * first load. The table beside it says the same for screen readers.
 */
export default function SalesChart({
  daily,
  currency,
}: {
  daily: MerchantDashboard['daily'];
  currency: MerchantDashboard['daily'][number]['currency'];
}) {
  const { t } = useTranslation();
  const points = daily
    .filter((day) => day.currency === currency)
    .map((day) => ({ date: day.date.slice(5), sales: day.sales / (currency === 'IMP' ? 1 : 100), minor: day.sales }));
  return (
    <figure className="sales-chart" aria-label={t('merchant.dashboard.chart_label', { currency })}>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis tick={{ fontSize: 11 }} width={48} allowDecimals={false} />
          <Tooltip
            formatter={(_value, _name, item) => [
              formatMoney((item.payload as { minor: number }).minor, currency),
              t('merchant.dashboard.sales'),
            ]}
          />
          <Bar dataKey="sales" fill="var(--brand, #3457d5)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
