import type { Currency } from '@peeks/contracts';
import { formatMoney } from '../lib/money.ts';

/** An amount in minor units as people read it ("$12.50 USD", "156.00 Coins"), its digits aligned in columns. */
export function Money({ minor, currency, signed = false }: { minor: number; currency: Currency; signed?: boolean }) {
  const text = formatMoney(Math.abs(minor), currency);
  const sign = signed ? (minor < 0 ? '−' : minor > 0 ? '+' : '') : minor < 0 ? '−' : '';
  const tone = signed && minor !== 0 ? (minor < 0 ? ' money-out' : ' money-in') : '';
  return <span className={`money${tone}`}>{`${sign}${text}`}</span>;
}
