import { describe, expect, it } from 'vitest';
import { tokenizerPage } from './tokenizer-page.ts';

const chosen = (html: string, select: string) =>
  new RegExp(`<select id="${select}"[^>]*>.*?<option selected>(\\d+)</option>`, 's').exec(html)?.[1];

describe('the tokenizer page', () => {
  it('starts the expiry at next month, never one already past', () => {
    const november = tokenizerPage({ nonce: 'n', parentOrigin: null, now: new Date('2026-11-28T23:00:00Z') });
    expect([chosen(november, 'expiry_month'), chosen(november, 'expiry_year')]).toEqual(['12', '2026']);
    const december = tokenizerPage({ nonce: 'n', parentOrigin: null, now: new Date('2026-12-31T23:00:00Z') });
    expect([chosen(december, 'expiry_month'), chosen(december, 'expiry_year')]).toEqual(['01', '2027']);
    expect(december.match(/<option selected>/g)).toHaveLength(2);
  });
});
