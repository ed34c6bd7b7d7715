import { z } from 'zod';

/**
 * The spec's message patterns (§5): 'Please enter X', 'Please enter at least
 * N characters X', 'Please enter at most N characters X', 'Please select X',
 * 'Please enter valid X'. Every field builder below speaks through these, so
 * the server and the forms show the same words.
 */
export const say = {
  enter: (label: string) => `Please enter ${label}`,
  atLeast: (min: number, label: string) => `Please enter at least ${min} characters ${label}`,
  atMost: (max: number, label: string) => `Please enter at most ${max} characters ${label}`,
  select: (label: string) => `Please select ${label}`,
  valid: (label: string) => `Please enter valid ${label}`,
};

// Control characters are never meant in a form field, and Postgres text cannot hold NUL.
const CONTROL_CHARACTER = /\p{Cc}/u;

export const hasControlCharacter = (value: string): boolean => CONTROL_CHARACTER.test(value);

/**
 * The shared rule behind every text field, applied to a whole request too:
 * the dotted path of the first string (value or key) in `value` holding a
 * control character, NUL included; null when there is none. It walks with
 * a stack of its own, not recursion, so no nesting overflows it, and each
 * place keeps only its own name, so a deep value costs no more than a wide one.
 */
export function controlCharacterAt(value: unknown, path: readonly string[] = []): string | null {
  interface Place {
    value: unknown;
    /** The member's name (an array's index) in its parent; null at the top. */
    name: string | null;
    parent: Place | null;
  }
  const pathOf = (place: Place | null, last: string[]): string => {
    const names = last;
    for (let at = place; at !== null; at = at.parent) if (at.name !== null) names.push(at.name);
    return [...path, ...names.reverse()].join('.') || 'body';
  };
  const pending: Place[] = [{ value, name: null, parent: null }];
  for (let place = pending.pop(); place !== undefined; place = pending.pop()) {
    // A member's name is checked when the walk reaches it, before its value, as a recursive walk would.
    if (place.name !== null && hasControlCharacter(place.name)) return pathOf(place.parent, ['?']);
    const current = place.value;
    if (typeof current === 'string') {
      if (hasControlCharacter(current)) return pathOf(place, []);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Object.entries(current);
    // Pushed last to first, so they are taken in order.
    for (let at = entries.length - 1; at >= 0; at -= 1) {
      const [name, item] = entries[at] as [string, unknown];
      pending.push({ value: item, name, parent: place });
    }
  }
  return null;
}

/** Missing reads 'Please enter X'; a value of the wrong JSON type reads 'Please enter valid X'. */
const stringOf = (label: string, missing = say.enter(label)) =>
  z.string({ error: (issue) => (issue.input === undefined ? missing : say.valid(label)) });

/** Required text, trimmed, `min` to `max` characters. A field reports its first problem. */
export function text(label: string, { min = 1, max }: { min?: number; max: number }) {
  return stringOf(label)
    .trim()
    .min(1, say.enter(label))
    .min(min, say.atLeast(min, label))
    .max(max, say.atMost(max, label))
    .refine((value) => !CONTROL_CHARACTER.test(value), say.valid(label));
}

/** Optional text, trimmed, at most `max` characters; empty is allowed. */
export function optionalText(label: string, max: number) {
  return stringOf(label)
    .trim()
    .max(max, say.atMost(max, label))
    .refine((value) => !CONTROL_CHARACTER.test(value), say.valid(label))
    .optional();
}

/** A choice from a list, such as a country: 'Please select X' when missing or not one of the choices. */
export function selected(label: string, pattern: RegExp) {
  return stringOf(label, say.select(label)).trim().regex(pattern, say.select(label));
}

/** ISO 3166 alpha-2, as the country selects send it. */
export const countryCode = (label = 'Country') => selected(label, /^[A-Z]{2}$/);

export function email(label = 'Email', max = 64) {
  return text(label, { max }).regex(z.regexes.email, say.valid(label));
}

/** The spec's wire form of a phone: '+', the dialling code and the 10 digits (+14165550123). */
const DIALLED_PHONE = /^\+(\d{1,4})(\d{10})$/;

/** Whether `value` is a phone in the spec's wire form, '+' dialling code and 10 digits. */
export const isDialledPhone = (value: string): boolean => DIALLED_PHONE.test(value);

/**
 * The rule of a phone field: 10 digits as the forms send them (the dialling
 * code in its own region field), or the spec's wire form, '+' dialling code
 * and the 10 digits, kept whole for `withDialledPhones` to split. Messages
 * per problem: missing, not digits, too short, too long.
 */
export function phoneDigits(
  label: string,
  messages: { missing: string; invalid: string; short: string; long: string },
) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? messages.missing : messages.invalid) })
    .trim()
    .min(1, messages.missing)
    .regex(/^(\d*|\+\d{11,14})$/, messages.invalid)
    .refine((value) => isDialledPhone(value) || !/^\d{0,9}$/.test(value), messages.short)
    .refine((value) => isDialledPhone(value) || !/^\d{11,}$/.test(value), messages.long);
}

/** 10 digits (the dialling code travels in its own *_phone_region field), or '+' dialling code and 10 digits. */
export function phoneNumber(label: string) {
  return phoneDigits(label, {
    missing: say.enter(label),
    invalid: say.valid(label),
    short: `Please enter 10 digit ${label}`,
    long: `Sorry, 10 digit ${label} accepted only`,
  });
}

/**
 * Splits each phone sent in the spec's wire form (+14165550123) into what
 * is stored today: the 10 digits in the phone field and the dialling code in
 * its region field (the code in the phone wins over a region sent beside
 * it). A phone without a region field keeps its 10 digits. Use as the
 * `.transform` of an object with phone fields.
 */
export function withDialledPhones(pairs: readonly (readonly [phone: string, region: string | null])[]) {
  return <Value extends Record<string, unknown>>(value: Value): Value => {
    const split: Record<string, unknown> = { ...value };
    for (const [phone, region] of pairs) {
      const match = typeof value[phone] === 'string' ? DIALLED_PHONE.exec(value[phone]) : null;
      if (!match) continue;
      split[phone] = match[2];
      if (region !== null) split[region] = `+${match[1] ?? ''}`;
    }
    return split as Value;
  };
}

/** The dialling code beside a phone number; +1 (Canada and the US) when left out. */
export const phoneRegion = (label: string) => selected(label, /^\+\d{1,4}$/).default('+1');

/** A whole number from 1 up, such as a record id or a category; `message` for any problem. */
export const positiveId = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);

export function httpUrl(label: string, max = 64) {
  return text(label, { max }).refine(isHttpUrl, say.valid(label));
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
}

/** A calendar date as the forms type it, "DD-MM-YYYY". */
export interface DayMonthYear {
  day: number;
  month: number;
  year: number;
}

/** Reads "DD-MM-YYYY"; null when the text is not one or names no real day (31-02-2000). */
export function parseDayMonthYear(value: string): DayMonthYear | null {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return { day, month, year };
}

/** Whole years from `birth` to `today` (UTC), counting a birthday only once it has come. */
export function ageOn(birth: DayMonthYear, today: Date): number {
  const [year, month, day] = [today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()];
  const birthdayPassed = month > birth.month || (month === birth.month && day >= birth.day);
  return year - birth.year - (birthdayPassed ? 0 : 1);
}

export const dayMonthYearToIso = ({ day, month, year }: DayMonthYear) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * A past (or today's) date typed "DD-MM-YYYY". `code` is the catalogue code
 * its problems are reported with, beside the field.
 */
export function pastDate(label: string, options: { code?: number; invalid?: string } = {}) {
  const invalid = options.invalid ?? say.valid(label);
  const params = options.code === undefined ? {} : { params: { code: options.code } };
  return stringOf(label)
    .trim()
    .min(1, say.enter(label))
    .refine((value) => value === '' || isPastDate(value), { error: invalid, ...params });
}

function isPastDate(value: string): boolean {
  const date = parseDayMonthYear(value);
  return date !== null && Date.parse(dayMonthYearToIso(date)) <= Date.now();
}

/** Canadian postal code (A1A 1A1, the space or dash optional) or US ZIP (12345 or 12345-6789). */
export function postalCodeFits(country: string, postalCode: string): boolean {
  return country === 'CA'
    ? /^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$/.test(postalCode)
    : /^\d{5}(-\d{4})?$/.test(postalCode);
}

export const postalCode = () => text('Postal/Zip Code', { min: 4, max: 16 });
