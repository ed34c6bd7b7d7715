import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions } from '../../testing/merchants.ts';
import { createFinanceOperator, generatedPassword } from './staff-accounts.ts';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
});
afterAll(() => subject.close());

const roleOf = async (userId: number) =>
  (await subject.database.db.selectFrom('users').select('role').where('user_id', '=', userId).executeTakeFirstOrThrow())
    .role;

describe('operator:create', () => {
  it('creates a finance operator whose one-time password signs in to the operations console', async () => {
    const result = await createFinanceOperator(subject.database.db, 'ops_maria', 'maria.ops@example.com', new Date());
    if (result.outcome !== 'created') throw new Error(`not created: ${JSON.stringify(result)}`);
    expect(await roleOf(result.userId)).toBe('finance');
    const browser = await subject.browser();
    expect((await browser.post('/api/login', { username: 'ops_maria', password: result.password })).statusCode).toBe(
      200,
    );
    expect((await browser.get('/api/operations/withdrawals')).statusCode).toBe(200);
  });

  it('promotes an existing user only when the e-mail matches too, and prints no password for one', async () => {
    const user = (await signedUp(subject, 'personal')).user;
    expect(
      await createFinanceOperator(
        subject.database.db,
        user.username.toUpperCase(),
        'someone.else@example.com',
        new Date(),
      ),
    ).toEqual({
      outcome: 'refused',
      reason: `user ${user.username.toUpperCase()} exists with another e-mail`,
    });
    expect(await roleOf(user.user_id)).toBe('user');
    expect(await createFinanceOperator(subject.database.db, user.username, user.email, new Date())).toEqual({
      outcome: 'promoted',
      userId: user.user_id,
    });
    expect(await roleOf(user.user_id)).toBe('finance');
  });

  it('refuses a username or e-mail that registration would refuse', async () => {
    const refused = await createFinanceOperator(subject.database.db, 'peeks_ops', 'not-an-email', new Date());
    expect(refused.outcome).toBe('refused');
    expect(refused.outcome === 'refused' && refused.reason).toContain('Username must not contain the word Peeks');
  });
});

describe('generated passwords', () => {
  it('meet the registration rules and differ every time', () => {
    const passwords = Array.from({ length: 200 }, generatedPassword);
    for (const password of passwords) expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{12}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});
