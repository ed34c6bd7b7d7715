import type { Currency } from '@peeks/contracts';
import { i18n } from '../i18n/i18n.ts';

/** Digits after the point of each currency's minor unit (platform §4): cents, hundredths of a coin, whole impressions. */
const FRACTION_DIGITS: Readonly<Record<Currency, number>> = { USD: 2, CAD: 2, CON: 2, IMP: 0 };

/** The unit written after an amount; cash is written the locale's way, with its currency sign. */
const UNIT: Readonly<Partial<Record<Currency, string>>> = { CON: 'PKS', IMP: 'IMP' };

/**
 * An amount in minor units as the user reads it, in their language:
 * "$12.34" / "CA$5.00" for cash, "1,250.00 PKS" for coins. The arithmetic
 * stays in integers; only the shown text has a decimal point.
 */
export function formatMoney(minorUnits: number, currency: Currency, language = i18n.language): string {
  const digits = FRACTION_DIGITS[currency];
  const major = minorUnits / 10 ** digits;
  const unit = UNIT[currency];
  if (unit === undefined) return new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: digits }).format(major);
  return `${new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(major)} ${unit}`;
}
