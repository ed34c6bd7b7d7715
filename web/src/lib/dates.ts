import { i18n } from '../i18n/i18n.ts';

/** A moment as the API sends it (ISO text), or as the browser holds it. */
type Moment = string | number | Date;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, kind: 'date' | 'day' | 'date-time'): Intl.DateTimeFormat {
  const key = `${language}|${kind}`;
  let each = formatters.get(key);
  if (!each) {
    each = new Intl.DateTimeFormat(
      language,
      kind === 'date-time'
        ? { dateStyle: 'medium', timeStyle: 'short' }
        : // A calendar day has no time zone: read and shown in UTC, it never moves to the day before.
          { dateStyle: 'medium', ...(kind === 'day' ? { timeZone: 'UTC' } : {}) },
    );
    formatters.set(key, each);
  }
  return each;
}

/** A calendar day as forms type it ("21-11-2026") or as ISO ("2026-11-21"), at UTC midnight; null for anything else. */
function calendarDay(moment: Moment): Date | null {
  if (typeof moment !== 'string') return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(moment);
  const typed = /^(\d{2})-(\d{2})-(\d{4})$/.exec(moment);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : typed ? [typed[3], typed[2], typed[1]] : [];
  if (year === undefined) return null;
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
}

const asDate = (moment: Moment) => (moment instanceof Date ? moment : new Date(moment));

/**
 * The app's three ways to show a moment, one per kind, in the reader's
 * language and time zone: a date ("Nov 21, 2026"), a date and time ("Nov
 * 21, 2026, 3:04 PM") and how long ago or ahead ("3 hours ago", "in 2
 * days"). What is not a date is shown as sent rather than "Invalid Date".
 */
export function formatDate(moment: Moment, language: string = i18n.language): string {
  const day = calendarDay(moment);
  if (day) return formatter(language, 'day').format(day);
  const date = asDate(moment);
  return Number.isNaN(date.getTime()) ? String(moment) : formatter(language, 'date').format(date);
}

export function formatDateTime(moment: Moment, language: string = i18n.language): string {
  const date = asDate(moment);
  return Number.isNaN(date.getTime()) ? String(moment) : formatter(language, 'date-time').format(date);
}

/** Where a date and time's time begins: its hour, or a period said before the hour ("午後", "오후"). */
const TIME_PARTS = new Set<Intl.DateTimeFormatPartTypes>(['hour', 'minute', 'second', 'dayPeriod']);

/**
 * The same date and time as formatDateTime, split where the time begins
 * (["Nov 21, 2026,", "3:04 PM"]), so a narrow column can break it there
 * rather than inside the date. Joined by a space they read as one.
 */
export function dateTimeLines(moment: Moment, language: string = i18n.language): [string, string] {
  const date = asDate(moment);
  if (Number.isNaN(date.getTime())) return [String(moment), ''];
  const parts = formatter(language, 'date-time').formatToParts(date);
  const time = parts.findIndex((part) => TIME_PARTS.has(part.type));
  if (time <= 0) return [formatDateTime(date, language), ''];
  const text = (from: number, to?: number) =>
    parts
      .slice(from, to)
      .map((part) => part.value)
      .join('');
  return [text(0, time).trimEnd(), text(time)];
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

export function formatRelative(moment: Moment, now: Moment = Date.now(), language: string = i18n.language): string {
  const date = asDate(moment);
  if (Number.isNaN(date.getTime())) return String(moment);
  const seconds = Math.round((date.getTime() - asDate(now).getTime()) / 1000);
  const [unit, size] = UNITS.find(([, each]) => Math.abs(seconds) >= each) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}
