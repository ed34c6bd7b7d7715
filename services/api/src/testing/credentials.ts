import { expect } from 'vitest';
import type { SignedIn } from './merchants.ts';

/** Every test sign-up's password (see accounts.ts). */
export const signUpPassword = 'Secret12';

/** Sets `pin` as the user's PIN through the Security tab's call. */
export async function withPin(owner: SignedIn, pin = '2580'): Promise<string> {
  const response = await owner.browser.post('/api/user/set-pin', { password: signUpPassword, pin, pin_repeat: pin });
  expect(response.statusCode, `set-pin for a fixture: ${response.body.slice(0, 200)}`).toBe(200);
  return pin;
}

/** Two questions chosen and answered: "Rex" to the first pet, "Ottawa" to the city of birth. */
export const chosenAnswers = () => [
  { question_id: 1, answer: 'Rex' },
  { question_id: 2, answer: 'Ottawa' },
];

export async function withSecurityQuestions(owner: SignedIn): Promise<void> {
  const response = await owner.browser.post('/api/user/set-security-questions', {
    password: signUpPassword,
    questions: chosenAnswers(),
  });
  expect(response.statusCode, `set-security-questions for a fixture: ${response.body.slice(0, 200)}`).toBe(200);
}
