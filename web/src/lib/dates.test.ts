import { describe, expect, it } from 'vitest';
import { dateTimeLines, formatDate, formatDateTime, formatRelative } from './dates.ts';

describe('one format per kind of date', () => {
  it('shows a date, a date and time, and a relative time in the given language', () => {
    const moment = '2026-11-21T15:04:00Z';
    expect(formatDate(moment, 'en')).toMatch(/^Nov 2[01], 2026$/);
    expect(formatDateTime(moment, 'en')).toMatch(/^Nov 2[01], 2026, \d{1,2}:04\s?[AP]M$/);
    expect(formatDate(moment, 'ja')).toMatch(/^2026\/11\/2[01]$/);
    expect(formatRelative('2026-11-21T12:00:00Z', '2026-11-21T15:00:00Z', 'en')).toBe('3 hours ago');
    expect(formatRelative('2026-11-23T15:00:00Z', '2026-11-21T15:00:00Z', 'en')).toBe('in 2 days');
    expect(formatRelative('2026-11-20T15:00:00Z', '2026-11-21T15:00:00Z', 'en')).toBe('yesterday');
  });

  it('keeps a calendar day on its day in every time zone, typed or ISO', () => {
    expect(formatDate('01-02-2030', 'en')).toBe('Feb 1, 2030');
    expect(formatDate('2030-02-01', 'en')).toBe('Feb 1, 2030');
  });

  it('splits a date and time where the time begins, reading as one when joined', () => {
    const moment = '2026-11-21T15:04:00Z';
    for (const language of ['en', 'ja', 'mr', 'ko']) {
      const [date, time] = dateTimeLines(moment, language);
      const oneSpace = (text: string) => text.replace(/\s+/g, ' ');
      expect(oneSpace(`${date} ${time}`), language).toBe(oneSpace(formatDateTime(moment, language)));
      // The first line is the date alone; the time is all on the second.
      expect(date.startsWith(formatDate(moment, language)), language).toBe(true);
      expect(time.length, language).toBeGreaterThan(0);
    }
    expect(dateTimeLines(moment, 'en')[0]).toMatch(/^Nov 2[01], 2026,$/);
    expect(dateTimeLines('soon', 'en')).toEqual(['soon', '']);
  });

  it('shows what is not a date as sent', () => {
    expect(formatDate('soon', 'en')).toBe('soon');
    expect(formatDateTime('soon', 'en')).toBe('soon');
  });
});

describe('every screen', () => {
  it('shows dates through this module only', () => {
    const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!./dates.ts'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    const own = Object.entries(sources)
      .filter(([, text]) => /toLocale(Date|Time)?String\(|Intl\.DateTimeFormat|Intl\.RelativeTimeFormat/.test(text))
      .map(([file]) => file);
    expect(own).toEqual([]);
  });
});
