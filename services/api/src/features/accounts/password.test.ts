import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyDecoy, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const [first, second] = await Promise.all([hashPassword('Secret12'), hashPassword('Secret12')]);
    expect(first).not.toBe(second);
    expect(await verifyPassword('Secret12', first)).toBe(true);
    expect(await verifyPassword('Secret13', first)).toBe(false);
    expect(await verifyPassword('secret12', second)).toBe(false);
  });

  it('verifies a hash made with other parameters, and says it needs redoing when they are weaker', async () => {
    const weak = await hashPassword('Secret12', { memory: 8192, passes: 1, parallelism: 1 });
    expect(weak).toMatch(/^\$argon2id\$v=19\$m=8192,t=1,p=1\$/);
    expect(await verifyPassword('Secret12', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('Secret12'))).toBe(false);
  });

  it('refuses a malformed stored hash instead of throwing', async () => {
    expect(await verifyPassword('Secret12', 'plain-text')).toBe(false);
    expect(await verifyPassword('Secret12', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA')).toBe(false);
  });

  it('never matches the decoy', async () => {
    expect(await verifyDecoy('Secret12')).toBe(false);
  });
});
