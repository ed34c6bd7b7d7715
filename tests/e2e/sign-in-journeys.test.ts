import { queuedRecoveryCode } from '@peeks/api/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkScreen, newcomer, signedInAs, signOut, signUpAsPerson } from './journey.ts';
import { stage } from './stage.ts';

/**
 * A newcomer's first minutes, in a real browser against npm start: sign up,
 * sign out, sign in with the keyboard alone, forget the password and set a
 * new one with the code from the e-mail outbox. Every screen on the way is
 * checked with axe-core and photographed.
 */
const peeks = stage();
let page: Page;
const who = newcomer('newcomer');
const newPassword = 'second-Pass2';

beforeAll(async () => {
  page = await peeks.page();
});

/** The recovery code of the last e-mail sent to the newcomer, as the outbox keeps it. */
function latestRecoveryCode(): Promise<string | null> {
  return queuedRecoveryCode(peeks.server.database.db, who.email);
}

/** Chooses the first two security questions with the session's CSRF token; the questions and their answers. */
function chooseSecurityQuestions(page: Page, password: string) {
  return page.evaluate(async (accountPassword) => {
    const json = (response: Response) => response.json() as Promise<Record<string, unknown>>;
    const { csrfToken } = (await json(await fetch('/api/session'))) as { csrfToken: string };
    const { questions } = (await json(await fetch('/api/user/security-questions'))) as {
      questions: { question_id: number; question: string }[];
    };
    const chosen = questions.slice(0, 2).map((each, index) => ({ ...each, answer: `answer ${String(index + 1)}` }));
    const response = await fetch('/api/user/set-security-questions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify({
        password: accountPassword,
        questions: chosen.map(({ question_id, answer }) => ({ question_id, answer })),
      }),
    });
    if (!response.ok) throw new Error(`set-security-questions: ${String(response.status)}`);
    return chosen;
  }, password);
}

describe('a newcomer in the browser', { timeout: 90_000 }, () => {
  it('opening the wallet as a guest is asked to sign in first; the business sign-up is there too', async () => {
    await page.goto(peeks.server.url);
    await page.getByRole('heading', { name: 'Account Access' }).waitFor();
    await checkScreen(page, '00-guest-at-home');
    await page.goto(`${peeks.server.url}/register/business`);
    await page.getByRole('heading', { name: 'Sign up for an Business account' }).waitFor();
    await checkScreen(page, '00-register-business');
  });

  it('signs up as a person from the register landing page and arrives signed in', async () => {
    await page.goto(`${peeks.server.url}/register`);
    await page.getByRole('heading', { name: 'Open an account' }).waitFor();
    await checkScreen(page, '01-register-landing');
    // The Personal card's, the first in the page (the top bar's leads back here).
    await page.getByRole('main').getByRole('link', { name: 'Sign Up' }).first().click();
    await page.getByRole('heading', { name: 'Sign up for an account' }).waitFor();
    await checkScreen(page, '02-register-personal');

    await signUpAsPerson(page, who);
    await checkScreen(page, '03-signed-up');
  });

  it('signs out, then signs in with the keyboard alone', async () => {
    await signOut(page);
    await page.goto(`${peeks.server.url}/login`);
    await page.getByRole('heading', { name: 'Account Access' }).waitFor();
    await checkScreen(page, '04-login');

    await page.getByLabel('Email or username').focus();
    await page.keyboard.type(who.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(who.password);
    await page.keyboard.press('Enter');
    await signedInAs(page, who.username);
    await checkScreen(page, '05-signed-in-by-keyboard');
  });

  it('recovers a forgotten password with the code from the e-mail outbox and the security answers, and signs in with the new one', async () => {
    // The Security tab has no screen yet; the newcomer chooses two questions through the API, as it would.
    const chosen = await chooseSecurityQuestions(page, who.password);
    await signOut(page);
    await page.goto(`${peeks.server.url}/forgot-password`);
    await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
    await checkScreen(page, '06-recovery-username');
    await page.getByLabel('Username').fill(who.username);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByLabel('Recovery Code').waitFor();
    await checkScreen(page, '07-recovery-code');

    await expect.poll(latestRecoveryCode, { timeout: 10_000 }).toMatch(/^\d+$/);
    const code = (await latestRecoveryCode()) ?? '';
    await page.getByLabel('Recovery Code').fill(code);
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('group', { name: 'Security Questions' }).waitFor();
    await checkScreen(page, '07b-recovery-questions');
    // Answers are compared with case and spaces folded.
    for (const { question, answer } of chosen) await page.getByLabel(question).fill(` ${answer.toUpperCase()} `);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password').fill(newPassword);
    await page.getByRole('button', { name: 'Save My Password' }).click();
    await page.getByRole('status').getByRole('link', { name: 'Take me Home' }).waitFor();
    await checkScreen(page, '08-recovery-done');

    await page.goto(`${peeks.server.url}/login`);
    await page.getByLabel('Email or username').fill(who.username);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await signedInAs(page, who.username);
  });
});
