import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { isSecretName, MAX_SCRUB_DEPTH, REDACTED, scrubSecrets, scrubUrl, TOO_DEEP } from './redaction.ts';

describe('scrubSecrets', () => {
  it('replaces secret-named fields at any depth and keeps the rest', () => {
    const scrubbed = scrubSecrets({
      username: 'alice',
      password: 'Hunter2abc',
      body: { confirm_password: 'x', card_number: '4242424242424242', cvv: '123', amount: 500 },
      headers: { cookie: 'sid=abc', authorization: 'Bearer t', 'x-csrf-token': 'c', accept: 'json' },
      list: [{ security_answer: 'blue', question: 'colour?' }],
      csrfToken: 'abc',
      webhookSecret: 'whsec_1',
      session: { sessionId: 's1', session_key: 'k1', csrf: 'c1', userId: 7 },
    });
    expect(scrubbed).toEqual({
      username: 'alice',
      password: REDACTED,
      body: { confirm_password: REDACTED, card_number: REDACTED, cvv: REDACTED, amount: 500 },
      headers: { cookie: REDACTED, authorization: REDACTED, 'x-csrf-token': REDACTED, accept: 'json' },
      list: [{ security_answer: REDACTED, question: 'colour?' }],
      csrfToken: REDACTED,
      webhookSecret: REDACTED,
      session: { sessionId: REDACTED, session_key: REDACTED, csrf: REDACTED, userId: 7 },
    });
  });

  it('survives cycles', () => {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = node;
    expect(scrubSecrets(node)).toEqual({ name: 'a', self: '[circular]' });
  });

  it('leaves out what is nested below its depth limit, so no value overflows it (issue 33)', () => {
    let deep: unknown = { password: 'Hunter2abc' };
    for (let level = 0; level < 20_000; level += 1) deep = { a: deep };
    let kept: unknown = scrubSecrets(deep);
    for (let level = 0; level < MAX_SCRUB_DEPTH; level += 1) kept = (kept as { a: unknown }).a;
    expect(kept).toBe(TOO_DEEP);
    expect(JSON.stringify(scrubSecrets(deep))).not.toContain('Hunter2abc');
  });
});

describe('scrubUrl', () => {
  it('masks a connection password and secret query values', () => {
    expect(scrubUrl('postgres://app:s3cret@db:5432/peeks')).toBe(`postgres://app:${REDACTED}@db:5432/peeks`);
    expect(scrubUrl('/checkout?id=12&token=abc&lang=en')).toBe(`/checkout?id=12&token=${REDACTED}&lang=en`);
    expect(scrubUrl('/api/health')).toBe('/api/health');
  });
});

describe('createLogger', () => {
  it('writes one JSON line with secrets scrubbed', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ LOG_LEVEL: 'info' }, sink);
    logger.info({ request: { password: 'Secret123', url: '/reset?reset_code=991234' } }, 'login attempt');
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).not.toContain('Secret123');
    expect(line).not.toContain('991234');
    expect(JSON.parse(line)).toMatchObject({ level: 'info', msg: 'login attempt' });
  });
});

describe('recovery and profile field names', () => {
  it.each([
    'recoveryCode',
    'recovery_code',
    'userPassword',
    'confirmPassword',
    'old_password',
    'new_password',
    'new_password_repeat',
    'LEDGER_LOG_KEY',
    'ledgerLogKey',
  ])('treats %s as a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });
});
