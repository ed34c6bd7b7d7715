import { z } from 'zod';
import { newPassword } from './accounts.ts';
import { SECURITY_QUESTIONS_CHOSEN, securityAnswer, securityQuestion } from './credentials.ts';
import { credentialMessages } from './form-messages.ts';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { recoveryMessages } from './form-messages.ts';
import { hasControlCharacter } from './fields.ts';

/** A recovery code lives 15 minutes and allows 5 tries; then a new one must be sent. */
export const RECOVERY_CODE_LIFETIME_MS = 15 * 60_000;
export const RECOVERY_CODE_TRIES = 5;
export const RECOVERY_CODE_DIGITS = 6;

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** Required text with one message for missing, empty, or not text at all. */
const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, message)
    .refine((value) => !hasControlCharacter(value), message);

const username = required(recoveryMessages.usernameRequired, 64);
const recoveryCode = required(recoveryMessages.codeRequired, 16);

/** POST /api/user/get-recovery-email and /api/user/send-recovery-code (steps 1 and 2). */
export const recoveryUsername = z.object({ username }, invalidArguments);
/** The address the code goes to, masked: `j***@e***.com`. */
export const recoveryEmailResponse = successEnvelope({ email: z.string() });

/** POST /api/user/check-recovery-code (step 3). */
export const checkRecoveryCodeRequest = z.object({ username, recoveryCode }, invalidArguments);

/**
 * POST /api/user/reset-password (step 4). The call table names username,
 * recoveryCode and userPassword; the form's Confirm Password travels too, so
 * the server checks the same rule the form shows.
 */
export const resetPasswordRequest = z
  .object(
    {
      username,
      recoveryCode,
      userPassword: newPassword('Password', recoveryMessages.passwordRequired),
      confirmPassword: z.string({ error: recoveryMessages.passwordRequired }).min(1, recoveryMessages.passwordRequired),
      /** The second step, for a user who chose security questions: the answers to the ones check-recovery-code named. */
      security_answers: z
        .array(securityAnswer, { error: credentialMessages.answerRequired })
        .max(SECURITY_QUESTIONS_CHOSEN)
        .optional(),
    },
    invalidArguments,
  )
  .refine((value) => value.userPassword === value.confirmPassword, {
    path: ['confirmPassword'],
    message: recoveryMessages.passwordsDiffer,
    when: bothPasswords,
  });

/** Checks the pair even while other fields are wrong, so the form shows every problem at once. */
function bothPasswords(payload: { value: unknown }): boolean {
  const value = payload.value;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).userPassword === 'string' &&
    typeof (value as Record<string, unknown>).confirmPassword === 'string'
  );
}

export const recoveryStepResponse = successEnvelope({ message: z.string().optional() });

/**
 * Step 3's answer. A user who chose security questions gets them here, once
 * the code is right, and answers them in step 4.
 */
export const recoveryCodeCheckedResponse = successEnvelope({
  message: z.string().optional(),
  security_questions: z.array(securityQuestion).optional(),
});

export type RecoveryUsername = z.infer<typeof recoveryUsername>;
export type CheckRecoveryCodeRequest = z.infer<typeof checkRecoveryCodeRequest>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;
