import { describe, expect, it } from 'vitest';
import { pickLanguage } from '../i18n/i18n.ts';
import { shownText } from './api.ts';
import { cached } from './cache.ts';
import { formatPhone } from './phone.ts';

describe('shownText (spec §8)', () => {
  it('a field rule keeps its own words; another code reads its error_codes text; an unknown code says something went wrong', () => {
    expect(shownText({ code: 4215, field: 'username', message: 'Please enter Username' })).toBe(
      'Please enter Username',
    );
    expect(shownText({ code: 4503, field: 'username', message: 'taken' })).toBe('Username Already Exist');
    expect(shownText({ code: 23201, message: 'duplicate' })).toBe('Sorry, This Contact Already Exist');
    expect(shownText({ code: 3026, message: 'x' })).toBe('You have entered current password wrong ');
    expect(shownText({ code: 99999, message: 'Disk full' })).toBe('Something went wrong - Disk full');
  });
});

describe('pickLanguage (spec §9)', () => {
  it('takes the first offered browser language by its primary tag, else English', () => {
    expect(pickLanguage(['ja-JP', 'en-US'])).toBe('ja');
    expect(pickLanguage(['de-DE', 'mr-IN'])).toBe('mr');
    expect(pickLanguage(['fr-CA'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });
});

describe('cached (30-minute local cache, spec §4 and §9)', () => {
  it('reads a value until its lifetime ends, then forgets it', () => {
    let now = 1_000;
    const entry = cached<{ n: number }>('test.entry', 30 * 60_000, () => now);
    expect(entry.read()).toBeNull();
    entry.write({ n: 1 });
    now += 30 * 60_000 - 1;
    expect(entry.read()).toEqual({ n: 1 });
    now += 1;
    expect(entry.read()).toBeNull();
    expect(localStorage.getItem('test.entry')).toBeNull();
  });
});

describe('formatPhone', () => {
  it('shows a phone as it is dialled, from the stored or the wire form', () => {
    expect(formatPhone('6135550123', '+1')).toBe('+1 613 555 0123');
    expect(formatPhone('2079460958', '+44')).toBe('+44 207 946 0958');
    expect(formatPhone('+442079460958')).toBe('+44 207 946 0958');
    expect(formatPhone('6135550123')).toBe('613 555 0123');
    expect(formatPhone('12345', '+1')).toBe('12345');
  });
});
