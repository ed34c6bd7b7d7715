import { randomBytes } from 'node:crypto';
import type { BusinessRegistration, PersonalRegistration } from '@peeks/contracts';
import { demoBusiness } from '../demo-data.ts';

/** A fresh, valid personal sign-up; override any field. */
export function personalSignUp(
  overrides: Partial<Record<keyof PersonalRegistration, unknown>> = {},
): Record<string, unknown> {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user.${tag}@example.com`,
    password: 'Secret12',
    confirm_password: 'Secret12',
    birthday: '15-06-1990',
    country: 'CA',
    termsAccepted: 1,
    ...overrides,
  };
}

/** A fresh, valid business sign-up (the demo merchant's business, renamed); override any field (and `address` as a whole). */
export function businessSignUp(
  overrides: Partial<Record<keyof BusinessRegistration, unknown>> = {},
): Record<string, unknown> {
  return { ...personalSignUp(), ...demoBusiness, name: 'Maple Coffee', dba: 'Maple Coffee Ltd', ...overrides };
}
