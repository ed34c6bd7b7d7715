/**
 * Money is an integer count of a currency's minor unit, never a float
 * (platform.md §4): cents for USD and CAD, hundredths of a coin for CON
 * (the spec divides coin amounts by 100 for display), whole impressions for IMP.
 */
export const currencies = ['USD', 'CAD', 'CON', 'IMP'] as const;
export type Currency = (typeof currencies)[number];

export const minorUnitsPerMajor: Readonly<Record<Currency, number>> = { USD: 100, CAD: 100, CON: 100, IMP: 1 };

export function isCurrency(code: string): code is Currency {
  return (currencies as readonly string[]).includes(code);
}

/** A whole number of minor units that JavaScript can hold exactly. */
export function isMinorUnits(amount: unknown): amount is number {
  return typeof amount === 'number' && Number.isSafeInteger(amount);
}

/** "12.34"-style text of an amount, for logs and exports; display formatting belongs to the web app. */
export function formatMinorUnits(amount: number, currency: Currency): string {
  if (!isMinorUnits(amount)) throw new RangeError(`${String(amount)} is not a whole number of minor units`);
  const perMajor = minorUnitsPerMajor[currency];
  if (perMajor === 1) return String(amount);
  const digits = String(perMajor).length - 1;
  const sign = amount < 0 ? '-' : '';
  const magnitude = Math.abs(amount);
  return `${sign}${Math.trunc(magnitude / perMajor)}.${String(magnitude % perMajor).padStart(digits, '0')}`;
}
