import { minorUnitsPerUnit, type Currency } from '@peeks/contracts';
import { i18n } from '../i18n/i18n.ts';

const decimalPlaces = (currency: Currency) => String(minorUnitsPerUnit[currency]).length - 1;

/**
 * An amount in minor units as people read it, in the user's language: cash
 * with its sign and code ("$12.50 USD", so a fee reads "$0.00" as spec §9
 * shows it), coins and impressions with their name ("1,250.50 Coins"). The
 * arithmetic stays in integers; only the shown text has a decimal point.
 */
export function formatMoney(minor: number, currency: Currency): string {
  const places = decimalPlaces(currency);
  const units = minor / minorUnitsPerUnit[currency];
  if (currency === 'USD' || currency === 'CAD') {
    return `${new Intl.NumberFormat(i18n.language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(units)} ${currency}`;
  }
  return `${new Intl.NumberFormat(i18n.language, { minimumFractionDigits: places, maximumFractionDigits: places }).format(units)} ${i18n.t(`currencies.${currency}`)}`;
}

/** The typed form of an amount in minor units ("12.50" for 1250 cents), as an amount field is refilled after Go Back. */
export function minorToTyped(minor: number, currency: Currency): string {
  const perUnit = minorUnitsPerUnit[currency];
  if (perUnit === 1) return String(minor);
  return `${String(Math.trunc(minor / perUnit))}.${String(minor % perUnit).padStart(decimalPlaces(currency), '0')}`;
}

/** A fee, which the spec shows in dollars whatever the transfer's currency: "$0.00" (spec §2, §9). */
export function formatFee(minorCents: number): string {
  return new Intl.NumberFormat(i18n.language, {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
  }).format(minorCents / minorUnitsPerUnit.USD);
}
