import {
  errorCodes,
  errorEnvelope,
  securityQuestionListResponse,
  securitySettingsResponse,
  transactionResponse,
} from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestBrowser } from '../../testing/app.ts';
import { queuedRecoveryCode } from '../../testing/accounts.ts';
import { chosenAnswers, signUpPassword, withPin, withSecurityQuestions } from '../../testing/credentials.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { fund } from '../../testing/money.ts';
import { storedBank } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';

let now = new Date('2030-01-01T09:00:00Z');
let subject: TestApp;
const generous = { max: 10_000, timeWindow: 60_000 };
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    clock: () => now,
    rateLimits: { registration: generous, recovery: generous, passwordChange: generous },
  });
});
afterAll(() => subject.close());

const advanceMinutes = (minutes: number) => {
  now = new Date(now.getTime() + minutes * 60_000);
};
const problems = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const settings = async (who: SignedIn) =>
  securitySettingsResponse.parse((await who.browser.get('/api/user/security-settings')).json());
const verify = (who: SignedIn, pin: unknown) => who.browser.post('/api/user/verify-pin', { pin });
const storedPin = (who: SignedIn) =>
  subject.database.db
    .selectFrom('user_pins')
    .select('pin_hash')
    .where('user_id', '=', who.user.user_id)
    .executeTakeFirst();

describe('the PIN', () => {
  it('is set with the account password, kept only as an argon2id hash, and verified', async () => {
    const who = await signedUp(subject, 'personal');
    expect(await settings(who)).toMatchObject({ pin_set: false, pin_locked_until: null, security_questions: [] });

    const wrongPassword = await who.browser.post('/api/user/set-pin', {
      password: 'Wrong123',
      pin: '2580',
      pin_repeat: '2580',
    });
    expectRefusal(wrongPassword, 422, errorCodes.currentPasswordWrong, 'wrong password');
    expect(problems(wrongPassword)[0]?.field).toBe('password');
    expect(await storedPin(who)).toBeUndefined();

    const set = await who.browser.post('/api/user/set-pin', {
      password: signUpPassword,
      pin: '2580',
      pin_repeat: '2580',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ message: 'PIN set successfully.' });
    const stored = await storedPin(who);
    expect(stored?.pin_hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(stored?.pin_hash).not.toContain('2580');
    expect(JSON.stringify(subject.logLines)).not.toContain('"2580"');
    expect((await settings(who)).pin_set).toBe(true);

    expect((await verify(who, '2580')).json()).toMatchObject({ message: 'PIN verified successfully.' });
    expectRefusal(await verify(who, '2581'), 422, errorCodes.pinWrong, 'a wrong PIN');
  });

  it.each([
    [{ pin: '' }, 'pin', 'Please enter PIN'],
    [{ pin: undefined }, 'pin', 'Please enter PIN'],
    [{ pin: '12a4' }, 'pin', 'PIN must be 4 to 6 digits'],
    [{ pin: '123' }, 'pin', 'PIN must be 4 to 6 digits'],
    [{ pin: '1234567' }, 'pin', 'PIN must be 4 to 6 digits'],
    [{ pin: 1234 }, 'pin', 'PIN must be 4 to 6 digits'],
    [{ pin_repeat: '2581' }, 'pin_repeat', 'New PIN and Confirm New PIN do not match, please try again.'],
    [{ pin_repeat: '' }, 'pin_repeat', 'Please enter Confirm New PIN'],
    [{ password: '' }, 'password', 'Please enter Password'],
  ])('set-pin %j reads %s: %s', async (change, field, message) => {
    const who = await signedUp(subject, 'personal');
    const response = await who.browser.post('/api/user/set-pin', {
      password: signUpPassword,
      pin: '2580',
      pin_repeat: '2580',
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toContainEqual(expect.objectContaining({ field, message }));
    expect(await storedPin(who)).toBeUndefined();
  });

  it('changes with the current PIN; the old one stops working', async () => {
    const who = await signedUp(subject, 'personal');
    await withPin(who, '2580');
    const wrong = await who.browser.post('/api/user/change-pin', {
      old_pin: '0000',
      new_pin: '1470',
      new_pin_repeat: '1470',
    });
    expectRefusal(wrong, 422, errorCodes.pinWrong, 'wrong current PIN');
    expect(problems(wrong)[0]?.field).toBe('old_pin');

    const same = await who.browser.post('/api/user/change-pin', {
      old_pin: '2580',
      new_pin: '2580',
      new_pin_repeat: '2580',
    });
    expect(same.statusCode).toBe(400);
    expect(problems(same)).toContainEqual(
      expect.objectContaining({ field: 'new_pin', message: 'Current PIN and New PIN are same, Please try again' }),
    );

    const changed = await who.browser.post('/api/user/change-pin', {
      old_pin: '2580',
      new_pin: '147036',
      new_pin_repeat: '147036',
    });
    expect(changed.json()).toMatchObject({ message: 'PIN Updated successfully.' });
    expect((await verify(who, '147036')).statusCode).toBe(200);
    expect((await verify(who, '2580')).statusCode).toBe(422);
  });

  it('is 42241 to verify or change before one is set', async () => {
    const who = await signedUp(subject, 'personal');
    expectRefusal(await verify(who, '2580'), 422, errorCodes.pinNotSet, 'verify');
    expectRefusal(
      await who.browser.post('/api/user/change-pin', { old_pin: '2580', new_pin: '1470', new_pin_repeat: '1470' }),
      422,
      errorCodes.pinNotSet,
      'change',
    );
  });

  it('locks for 15 minutes after 5 wrong PINs, even the right one, then opens again', async () => {
    const who = await signedUp(subject, 'personal');
    await withPin(who, '2580');
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expectRefusal(await verify(who, '1111'), 422, errorCodes.pinWrong, `wrong try ${attempt}`);
    const fifth = await verify(who, '1111');
    expectRefusal(fifth, 429, errorCodes.secretLocked, 'the fifth wrong try');
    expect(Number(fifth.headers['retry-after'])).toBe(15 * 60);
    expectRefusal(await verify(who, '2580'), 429, errorCodes.secretLocked, 'the right PIN while locked');
    expect((await settings(who)).pin_locked_until).toBe(new Date(now.getTime() + 15 * 60_000).toISOString());

    advanceMinutes(15);
    expect((await verify(who, '2580')).statusCode).toBe(200);
    // A right PIN clears the count: four more wrong ones do not lock.
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await verify(who, '1111')).statusCode).toBe(422);
    expect((await verify(who, '2580')).statusCode).toBe(200);
  });

  it('counts many wrong PINs sent at once against the same 5 tries', async () => {
    const who = await signedUp(subject, 'personal');
    await withPin(who, '2580');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => verify(who, String(3000 + index))));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 422).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(8);
    expect(statuses.every((status) => status === 422 || status === 429)).toBe(true);
    expect((await verify(who, '2580')).statusCode).toBe(429);
  });

  it('set-pin with the password replaces a forgotten PIN and lifts the lock', async () => {
    const who = await signedUp(subject, 'personal');
    await withPin(who, '2580');
    for (let attempt = 1; attempt <= 5; attempt += 1) await verify(who, '9999');
    expect((await verify(who, '2580')).statusCode).toBe(429);
    const reset = await who.browser.post('/api/user/set-pin', {
      password: signUpPassword,
      pin: '8642',
      pin_repeat: '8642',
    });
    expect(reset.json()).toMatchObject({ message: 'PIN Updated successfully.' });
    expect((await verify(who, '8642')).statusCode).toBe(200);
  });

  it("one user's wrong PINs do not lock another's", async () => {
    const [mallory, alice] = [await signedUp(subject, 'personal'), await signedUp(subject, 'personal')];
    await withPin(mallory, '1234');
    await withPin(alice, '2580');
    for (let attempt = 1; attempt <= 6; attempt += 1) await verify(mallory, '2580');
    expect((await verify(alice, '2580')).statusCode).toBe(200);
  });
});

describe('security questions', () => {
  it('lists the questions to choose from', async () => {
    const who = await signedUp(subject, 'personal');
    const { questions } = securityQuestionListResponse.parse(
      (await who.browser.get('/api/user/security-questions')).json(),
    );
    expect(questions.length).toBeGreaterThanOrEqual(6);
    expect(questions[0]).toEqual({ question_id: 1, question: 'What was the name of your first pet?' });
  });

  it('saves two answers, hashed, and shows the questions but never the answers', async () => {
    const who = await signedUp(subject, 'personal');
    const response = await who.browser.post('/api/user/set-security-questions', {
      password: signUpPassword,
      questions: chosenAnswers(),
    });
    expect(response.json()).toMatchObject({ message: 'Security Questions saved successfully.' });
    const shown = await settings(who);
    expect(shown.security_questions).toEqual([
      { question_id: 1, question: 'What was the name of your first pet?' },
      { question_id: 2, question: 'In what city were you born?' },
    ]);
    const rows = await subject.database.db
      .selectFrom('user_security_answers')
      .select('answer_hash')
      .where('user_id', '=', who.user.user_id)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.answer_hash).toMatch(/^\$argon2id\$/);
      expect(row.answer_hash.toLowerCase()).not.toContain('rex');
    }
    // Choosing again replaces the first choice.
    await who.browser.post('/api/user/set-security-questions', {
      password: signUpPassword,
      questions: [
        { question_id: 5, answer: 'Civic' },
        { question_id: 3, answer: 'Roy' },
      ],
    });
    expect((await settings(who)).security_questions.map((each) => each.question_id)).toEqual([5, 3]);
  });

  it.each([
    [{ questions: [{ question_id: 1, answer: 'Rex' }] }, 'questions', 'Please select Security Question'],
    [
      {
        questions: [
          { question_id: 1, answer: 'Rex' },
          { question_id: 1, answer: 'Max' },
        ],
      },
      'questions',
      'Please choose two different questions',
    ],
    [
      {
        questions: [
          { question_id: 1, answer: '' },
          { question_id: 2, answer: 'Ottawa' },
        ],
      },
      'questions.0.answer',
      'Please enter Answer',
    ],
    [
      {
        questions: [
          { question_id: 1, answer: 'R' },
          { question_id: 2, answer: 'Ottawa' },
        ],
      },
      'questions.0.answer',
      'Please enter at least 2 characters Answer',
    ],
  ])('%j reads %s: %s', async (change, field, message) => {
    const who = await signedUp(subject, 'personal');
    const response = await who.browser.post('/api/user/set-security-questions', {
      password: signUpPassword,
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(problems(response)).toContainEqual(expect.objectContaining({ field, message }));
    expect((await settings(who)).security_questions).toEqual([]);
  });

  it('refuses a question that is not on the list, and a wrong password, writing nothing', async () => {
    const who = await signedUp(subject, 'personal');
    const unknown = await who.browser.post('/api/user/set-security-questions', {
      password: signUpPassword,
      questions: [
        { question_id: 99, answer: 'Rex' },
        { question_id: 2, answer: 'Ottawa' },
      ],
    });
    expect(unknown.statusCode).toBe(422);
    expectRefusal(
      await who.browser.post('/api/user/set-security-questions', { password: 'Wrong123', questions: chosenAnswers() }),
      422,
      errorCodes.currentPasswordWrong,
    );
    expect((await settings(who)).security_questions).toEqual([]);
  });
});

describe('the second step of password recovery', () => {
  async function recoveringUser() {
    const who = await signedUp(subject, 'personal');
    await withSecurityQuestions(who);
    const browser = await subject.browser();
    await browser.post('/api/user/send-recovery-code', { username: who.user.username });
    const recoveryCode = String(await queuedRecoveryCode(subject.database.db, who.user.email));
    return { who, browser, recoveryCode };
  }
  const reset = (browser: TestBrowser, username: string, recoveryCode: string, extra: Record<string, unknown> = {}) =>
    browser.post('/api/user/reset-password', {
      username,
      recoveryCode,
      userPassword: 'NewPass12',
      confirmPassword: 'NewPass12',
      ...extra,
    });
  const signsIn = async (username: string, password: string) =>
    (await (await subject.browser()).post('/api/login', { username, password })).statusCode === 200;

  it('names the chosen questions once the code is right, and resets only with both answers', async () => {
    const { who, browser, recoveryCode } = await recoveringUser();
    const checked = await browser.post('/api/user/check-recovery-code', {
      username: who.user.username,
      recoveryCode,
    });
    expect(checked.json()).toMatchObject({
      response: 'success',
      security_questions: [
        { question_id: 1, question: 'What was the name of your first pet?' },
        { question_id: 2, question: 'In what city were you born?' },
      ],
    });

    const missing = await reset(browser, who.user.username, recoveryCode);
    expectRefusal(missing, 422, errorCodes.securityAnswersNeeded, 'no answers');
    expect(problems(missing)[0]?.field).toBe('security_answers');
    expectRefusal(
      await reset(browser, who.user.username, recoveryCode, {
        security_answers: [
          { question_id: 1, answer: 'Rex' },
          { question_id: 2, answer: 'Toronto' },
        ],
      }),
      422,
      errorCodes.securityAnswersWrong,
      'one wrong answer',
    );
    expect(await signsIn(who.user.username, 'NewPass12')).toBe(false);

    // Case and spaces do not matter.
    const done = await reset(browser, who.user.username, recoveryCode, {
      security_answers: [
        { question_id: 1, answer: '  rEX ' },
        { question_id: 2, answer: 'OTTAWA' },
      ],
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await signsIn(who.user.username, 'NewPass12')).toBe(true);
  });

  it('locks the answers after 5 wrong sets', async () => {
    const { who, browser, recoveryCode } = await recoveringUser();
    await browser.post('/api/user/check-recovery-code', { username: who.user.username, recoveryCode });
    const wrong = {
      security_answers: [
        { question_id: 1, answer: 'Max' },
        { question_id: 2, answer: 'Paris' },
      ],
    };
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expectRefusal(await reset(browser, who.user.username, recoveryCode, wrong), 422, errorCodes.securityAnswersWrong);
    expectRefusal(await reset(browser, who.user.username, recoveryCode, wrong), 429, errorCodes.secretLocked);
    expectRefusal(
      await reset(browser, who.user.username, recoveryCode, { security_answers: chosenAnswers() }),
      429,
      errorCodes.secretLocked,
      'right answers while locked',
    );
  });

  it('is unchanged for a user who chose no questions', async () => {
    const who = await signedUp(subject, 'personal');
    const browser = await subject.browser();
    await browser.post('/api/user/send-recovery-code', { username: who.user.username });
    const recoveryCode = String(await queuedRecoveryCode(subject.database.db, who.user.email));
    const checked = await browser.post('/api/user/check-recovery-code', { username: who.user.username, recoveryCode });
    expect(checked.json()).toEqual({ response: 'success' });
    expect((await reset(browser, who.user.username, recoveryCode)).statusCode).toBe(200);
  });
});

describe('a withdrawal confirmed with the PIN', () => {
  async function fundedWithBank() {
    const who = await signedUp(subject, 'personal');
    await fund(subject, userOwnerId(who.user.user_id), 10_000, 'USD');
    return { who, bank: await storedBank(who) };
  }
  const withdrawals = (who: SignedIn) =>
    subject.database.db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('state', '=', 'pending')
      .where('payer_owner_id', '=', userOwnerId(who.user.user_id))
      .execute();

  it('needs no PIN from a user who has none, as before', async () => {
    const { who, bank } = await fundedWithBank();
    const response = await who.browser.post('/api/account/withdraw', {
      amount: 1_000,
      currency: 'USD',
      paymentMethodId: bank,
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('needs the right PIN once one is set; a missing or wrong one reserves nothing', async () => {
    const { who, bank } = await fundedWithBank();
    await withPin(who, '2580');
    const form = { amount: 1_000, currency: 'USD', paymentMethodId: bank };
    const missing = await who.browser.post('/api/account/withdraw', form);
    expectRefusal(missing, 422, errorCodes.pinNeeded, 'no PIN');
    expect(problems(missing)[0]).toMatchObject({
      field: 'pin',
      message: 'Please enter PIN to confirm this withdrawal',
    });
    expectRefusal(
      await who.browser.post('/api/account/withdraw', { ...form, pin: '1111' }),
      422,
      errorCodes.pinWrong,
      'wrong PIN',
    );
    expect(await withdrawals(who)).toEqual([]);

    const done = await who.browser.post('/api/account/withdraw', { ...form, pin: '2580' });
    expect(done.statusCode, done.body).toBe(200);
    expect(transactionResponse.parse(done.json()).transaction.state).toBe('pending');
    expect(await withdrawals(who)).toHaveLength(1);
  });
});
