import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { fakeApi, ok, refused, renderApp, resetSession } from '../../testing/app.tsx';

const recoveryApi = (overrides = {}) =>
  fakeApi({
    'POST /api/user/get-recovery-email': () => ok({ email: 'a***@e***.com' }),
    'POST /api/user/send-recovery-code': () => ok({}),
    'POST /api/user/check-recovery-code': () => ok({}),
    'POST /api/user/reset-password': () => ok({}),
    ...overrides,
  });

describe('/forgot-password, five steps (spec §2, §4, §5 Forgot password)', () => {
  beforeEach(resetSession);

  it('goes from username to a changed password with the spec texts, sending what each step needs', async () => {
    const api = recoveryApi();
    const { user } = renderApp('/forgot-password');
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Username'), 'anne_tremblay');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Your code will be sent to')).toBeTruthy();
    expect(screen.getByText('a***@e***.com')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send Code' }));

    await user.click(await screen.findByRole('button', { name: 'Next Step' }));
    expect(await screen.findByText('Recovery Code is Required')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend Recovery Code' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/user/send-recovery-code')).toHaveLength(2);
    });
    await user.type(screen.getByLabelText('Recovery Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Next Step' }));

    await user.click(await screen.findByRole('button', { name: 'Save My Password' }));
    expect(await screen.findAllByText('Password is required')).toHaveLength(2);
    await user.type(screen.getByLabelText('Password'), 'Changed34');
    await user.type(screen.getByLabelText('Confirm Password'), 'Changed35');
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'Changed34');
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));

    expect(await screen.findByText('Your Password has been changed successfully!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Take me Home' }).getAttribute('href')).toBe('/login');
    expect(api.sent('POST', '/api/user/reset-password')[0]?.body).toEqual({
      username: 'anne_tremblay',
      recoveryCode: '123456',
      userPassword: 'Changed34',
      confirmPassword: 'Changed34',
    });
  });

  it('sends the code check and the reset as before for a user who chose no questions', async () => {
    const api = recoveryApi();
    const { user } = renderApp('/forgot-password');
    await reachPasswordStep(user);
    expect(screen.queryByRole('group', { name: 'Security Questions' })).toBeNull();
    await typeNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));
    expect(await screen.findByText('Your Password has been changed successfully!')).toBeTruthy();
    expect(api.sent('POST', '/api/user/reset-password')[0]?.body).not.toHaveProperty('security_answers');
  });

  it("shows a refused step's server text under 'Error!' and stays on the step", async () => {
    recoveryApi({
      'POST /api/user/check-recovery-code': () =>
        refused(422, [{ code: 42220, field: 'recoveryCode', message: 'Recovery Code is invalid' }]),
    });
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Username'), 'anne_tremblay');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(await screen.findByRole('button', { name: 'Send Code' }));
    await user.type(await screen.findByLabelText('Recovery Code'), '999999');
    await user.click(screen.getByRole('button', { name: 'Next Step' }));
    expect(await screen.findByText('Error!')).toBeTruthy();
    expect(screen.getAllByText('Recovery Code is invalid').length).toBeGreaterThan(0);
    expect(screen.getByText('Step 3 of 5')).toBeTruthy();
  });
});

const questions = [
  { question_id: 3, question: 'What was the name of your first pet?' },
  { question_id: 7, question: 'In what city were you born?' },
];

type User = ReturnType<typeof renderApp>['user'];

async function typeNewPassword(user: User) {
  await user.type(screen.getByLabelText(i18n.t('recovery.password')), 'Changed34');
  await user.type(screen.getByLabelText(i18n.t('recovery.confirm_password')), 'Changed34');
}

describe('/forgot-password, the security questions of a user who chose them', () => {
  beforeEach(resetSession);
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('asks each question with a labelled answer field and sends the answers with the reset', async () => {
    const api = recoveryApi({ 'POST /api/user/check-recovery-code': () => ok({ security_questions: questions }) });
    const { user } = renderApp('/forgot-password');
    await reachPasswordStep(user);
    expect(screen.getByRole('group', { name: 'Security Questions' })).toBeTruthy();
    const first = screen.getByLabelText('What was the name of your first pet?');
    expect(document.activeElement).toBe(first);

    await typeNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.filter((alert) => alert.textContent === 'Please enter Answer')).toHaveLength(2);
    expect(api.sent('POST', '/api/user/reset-password')).toHaveLength(0);

    // Keyboard only: the first answer, Tab to the second.
    await user.click(first);
    await user.keyboard('Rex');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('In what city were you born?'));
    await user.keyboard('Montréal');
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));

    expect(await screen.findByText('Your Password has been changed successfully!')).toBeTruthy();
    expect(api.sent('POST', '/api/user/reset-password')[0]?.body).toEqual({
      username: 'anne_tremblay',
      recoveryCode: '123456',
      userPassword: 'Changed34',
      confirmPassword: 'Changed34',
      security_answers: [
        { question_id: 3, answer: 'Rex' },
        { question_id: 7, answer: 'Montréal' },
      ],
    });
  });

  it.each([
    ['en', 'The answers to your security questions are incorrect'],
    ['ja', '秘密の質問の答えが正しくありません'],
    ['mr', 'तुमच्या सुरक्षा प्रश्नांची उत्तरे चुकीची आहेत'],
  ] as const)('announces wrong answers (42243) in %s and stays on the step', async (language, text) => {
    await i18n.changeLanguage(language);
    recoveryApi({
      'POST /api/user/check-recovery-code': () => ok({ security_questions: questions }),
      'POST /api/user/reset-password': () =>
        refused(422, [
          { code: 42243, field: 'security_answers', message: 'The answers to your security questions are incorrect' },
        ]),
    });
    const { user } = renderApp('/forgot-password');
    await reachPasswordStep(user);
    await user.type(screen.getByLabelText('What was the name of your first pet?'), 'Felix');
    await user.type(screen.getByLabelText('In what city were you born?'), 'Paris');
    await typeNewPassword(user);
    await user.click(screen.getByRole('button', { name: i18n.t('recovery.save') }));
    const alert = (await screen.findAllByRole('alert')).find((each) => each.textContent.includes(text));
    expect(alert).toBeTruthy();
    expect(screen.queryByRole('link', { name: i18n.t('recovery.home') })).toBeNull();
  });

  it('says the answers are locked (429 42940) in the user language', async () => {
    await i18n.changeLanguage('ja');
    const api = recoveryApi({
      'POST /api/user/check-recovery-code': () => ok({ security_questions: questions }),
      'POST /api/user/reset-password': () =>
        refused(429, [
          { code: 42940, field: 'security_answers', message: 'Too many wrong tries, please try again in 15 minutes' },
        ]),
    });
    const { user } = renderApp('/forgot-password');
    await reachPasswordStep(user);
    await user.type(screen.getByLabelText('What was the name of your first pet?'), 'Rex');
    await user.type(screen.getByLabelText('In what city were you born?'), 'Montréal');
    await typeNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'パスワードを保存' }));
    const alert = (await screen.findAllByRole('alert')).find((each) =>
      each.textContent.includes('間違いが多すぎます。15分後にもう一度お試しください'),
    );
    expect(alert).toBeTruthy();
    expect(api.sent('POST', '/api/user/reset-password')).toHaveLength(1);
  });

  it('shows a missing-answers refusal (42244)', async () => {
    recoveryApi({
      'POST /api/user/check-recovery-code': () => ok({ security_questions: questions }),
      'POST /api/user/reset-password': () =>
        refused(422, [{ code: 42244, field: 'security_answers', message: 'Please answer your security questions' }]),
    });
    const { user } = renderApp('/forgot-password');
    await reachPasswordStep(user);
    await user.type(screen.getByLabelText('What was the name of your first pet?'), 'Rex');
    await user.type(screen.getByLabelText('In what city were you born?'), 'Montréal');
    await typeNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));
    expect(await screen.findByText('Please answer your security questions')).toBeTruthy();
  });
});

/** Username, Send Code, the code: by the labels and buttons' texts in the current language. */
async function reachPasswordStep(user: User) {
  await user.type(await screen.findByLabelText(i18n.t('recovery.username')), 'anne_tremblay');
  await user.click(screen.getByRole('button', { name: i18n.t('recovery.submit') }));
  await user.click(await screen.findByRole('button', { name: i18n.t('recovery.send_code') }));
  await user.type(await screen.findByLabelText(i18n.t('recovery.recovery_code')), '123456');
  await user.click(screen.getByRole('button', { name: i18n.t('recovery.next') }));
  await screen.findByRole('button', { name: i18n.t('recovery.save') });
}
