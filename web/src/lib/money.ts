import { minorUnitsPerUnit, type Currency } from '@peeks/contracts';
import { i18n } from '../i18n/i18n.ts';

const decimalPlaces = (currency: Currency) => String(minorUnitsPerUnit[currency]).length - 1;

/**
 * One formatter per language and currency, made once: making one costs far
 * more than formatting with it, and the dashboard formats dozens of amounts
 * while it first renders.
 */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(currency: Currency): Intl.NumberFormat {
  const key = `${i18n.language}|${currency}`;
  let each = formatters.get(key);
  if (!each) {
    const places = decimalPlaces(currency);
    each = new Intl.NumberFormat(
      i18n.language,
      currency === 'USD' || currency === 'CAD'
        ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }
        : { minimumFractionDigits: places, maximumFractionDigits: places },
    );
    formatters.set(key, each);
  }
  return each;
}

/**
 * An amount in minor units as people read it, in the user's language: cash
 * with its sign and code ("$12.50 USD", so a fee reads "$0.00" as spec §9
 * shows it), coins and impressions with their name ("1,250.50 Coins"). The
 * arithmetic stays in integers; only the shown text has a decimal point.
 */
export function formatMoney(minor: number, currency: Currency): string {
  const units = minor / minorUnitsPerUnit[currency];
  if (currency === 'USD' || currency === 'CAD') return `${numberFormat(currency).format(units)} ${currency}`;
  return `${numberFormat(currency).format(units)} ${i18n.t(`currencies.${currency}`)}`;
}

/** The typed form of an amount in minor units ("12.50" for 1250 cents), as an amount field is refilled after Go Back. */
export function minorToTyped(minor: number, currency: Currency): string {
  const perUnit = minorUnitsPerUnit[currency];
  if (perUnit === 1) return String(minor);
  return `${String(Math.trunc(minor / perUnit))}.${String(minor % perUnit).padStart(decimalPlaces(currency), '0')}`;
}

/** A fee, which the spec shows in dollars whatever the transfer's currency: "$0.00" (spec §2, §9). */
export function formatFee(minorCents: number): string {
  return numberFormat('USD').format(minorCents / minorUnitsPerUnit.USD);
}
