import { describe, expect, it } from 'vitest';
import { attemptKeys } from './attempts.ts';

describe('attemptKeys: one Idempotency-Key per attempt', () => {
  const counter = () => {
    let next = 0;
    return () => `key-${String(++next)}`;
  };

  it('keeps the key for the same request until the server settles it, then starts a new attempt', () => {
    const keys = attemptKeys(counter());
    const request = { payment_method_id: 3, coin_amt: 15_600, currency: 'USD' };
    expect(keys.keyFor(request)).toBe('key-1');
    expect(keys.keyFor({ ...request })).toBe('key-1');
    keys.settled(0);
    expect(keys.keyFor(request), 'no answer: the same attempt').toBe('key-1');
    keys.settled(503);
    expect(keys.keyFor(request), 'a 5xx settled nothing').toBe('key-1');
    keys.settled(422);
    expect(keys.keyFor(request), 'after a refusal, trying again is a new attempt').toBe('key-2');
    keys.settled(200);
    expect(keys.keyFor(request)).toBe('key-3');
  });

  it('gives a different request a new key', () => {
    const keys = attemptKeys(counter());
    expect(keys.keyFor({ coin_amt: 100 })).toBe('key-1');
    expect(keys.keyFor({ coin_amt: 200 })).toBe('key-2');
    expect(keys.keyFor({ coin_amt: 100 })).toBe('key-3');
  });

  it('uses random UUIDs by default', () => {
    expect(attemptKeys().keyFor({})).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
