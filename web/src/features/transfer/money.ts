import { minorUnitsPerUnit, type CurrencyCode } from '@peeks/contracts';

/** The typed form of an amount in minor units ("12.50" for 1250 cents), as the amount field is filled from the page's `amt`. */
export function minorToTyped(minor: number, currency: CurrencyCode): string {
  const perUnit = minorUnitsPerUnit[currency];
  if (perUnit === 1) return String(minor);
  const places = String(perUnit).length - 1;
  return `${String(Math.trunc(minor / perUnit))}.${String(minor % perUnit).padStart(places, '0')}`;
}

/**
 * An amount for people to read: cash with its sign and code ("$12.50 USD",
 * so the fee reads "$0.00" as spec §9 shows it), coins and impressions with
 * their name ("12.50 Coins").
 */
export function formatMoney(minor: number, currency: CurrencyCode, language: string, unitName: string): string {
  const perUnit = minorUnitsPerUnit[currency];
  const places = String(perUnit).length - 1;
  const units = minor / perUnit;
  if (currency === 'USD' || currency === 'CAD') {
    return `${new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(units)} ${currency}`;
  }
  return `${new Intl.NumberFormat(language, { minimumFractionDigits: places, maximumFractionDigits: places }).format(units)} ${unitName}`;
}
