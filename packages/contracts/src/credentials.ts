import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { credentialMessages } from './form-messages.ts';
import { positiveId, say } from './fields.ts';

/** Wrong PINs (or answers) in a row before that kind is locked, and for how long. */
export const SECRET_TRIES = 5;
export const SECRET_LOCK_MINUTES = 15;
export const SECURITY_QUESTIONS_CHOSEN = 2;

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** 4 to 6 digits, as typed (leading zeros count). */
export const pinField = (missing: string = credentialMessages.pinRequired) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : credentialMessages.pinFormat) })
    .min(1, missing)
    .regex(/^\d{4,6}$/, credentialMessages.pinFormat);

const accountPassword = z
  .string({ error: credentialMessages.passwordRequired })
  .min(1, credentialMessages.passwordRequired)
  // Only to bound the hashing work, as change-password does.
  .max(64, say.atMost(64, 'Password'));

function present(value: unknown, ...keys: string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return keys.every((key) => typeof fields[key] === 'string');
}

/**
 * POST /api/user/set-pin: a first PIN, or a new one for a user who forgot
 * theirs. The account password stands for the session's owner (a session
 * alone may be a laptop left open).
 */
export const setPinRequest = z
  .object(
    { password: accountPassword, pin: pinField(), pin_repeat: pinField(credentialMessages.confirmPinRequired) },
    invalidArguments,
  )
  .refine((value) => value.pin === value.pin_repeat, {
    path: ['pin_repeat'],
    message: credentialMessages.pinsDiffer,
    when: (payload) => present(payload.value, 'pin', 'pin_repeat'),
  });

/** POST /api/user/change-pin: the current PIN and the new one twice. */
export const changePinRequest = z
  .object(
    {
      old_pin: pinField(credentialMessages.oldPinRequired),
      new_pin: pinField(credentialMessages.newPinRequired),
      new_pin_repeat: pinField(credentialMessages.confirmPinRequired),
    },
    invalidArguments,
  )
  .superRefine(
    (value, context) => {
      if (value.old_pin === value.new_pin)
        context.addIssue({ code: 'custom', path: ['new_pin'], message: credentialMessages.pinSame });
      if (value.new_pin !== value.new_pin_repeat)
        context.addIssue({ code: 'custom', path: ['new_pin_repeat'], message: credentialMessages.pinsDiffer });
    },
    { when: (payload) => present(payload.value, 'old_pin', 'new_pin', 'new_pin_repeat') },
  );

/** POST /api/user/verify-pin: before a step the screen guards with the PIN. */
export const verifyPinRequest = z.object({ pin: pinField() }, invalidArguments);

/** An answer as typed; compared after folding case and runs of spaces. */
const answerText = z
  .string({ error: credentialMessages.answerRequired })
  .trim()
  .min(1, credentialMessages.answerRequired)
  .min(2, say.atLeast(2, 'Answer'))
  .max(64, say.atMost(64, 'Answer'));

const questionId = positiveId(credentialMessages.questionRequired);

export const securityAnswer = z.object({ question_id: questionId, answer: answerText }, invalidArguments);

/** Exactly two answers, to two different questions. */
export const securityAnswers = z
  .array(securityAnswer, { error: credentialMessages.questionRequired })
  .length(SECURITY_QUESTIONS_CHOSEN, credentialMessages.questionRequired)
  .refine((answers) => new Set(answers.map((each) => each.question_id)).size === answers.length, {
    message: credentialMessages.questionsSame,
  });

/** POST /api/user/set-security-questions: choose 2, answer both; replaces any earlier choice. */
export const setSecurityQuestionsRequest = z.object(
  { password: accountPassword, questions: securityAnswers },
  invalidArguments,
);

export const securityQuestion = z.object({ question_id: z.number().int(), question: z.string() });

/** GET /api/user/security-questions: the questions to choose from. */
export const securityQuestionListResponse = successEnvelope({ questions: z.array(securityQuestion) });

/** GET /api/user/security-settings: what the Security tab shows; never a hash or an answer. */
export const securitySettingsResponse = successEnvelope({
  pin_set: z.boolean(),
  /** When wrong PINs locked it, until when; null otherwise. */
  pin_locked_until: z.string().nullable(),
  security_questions: z.array(securityQuestion),
});

export const credentialChangedResponse = successEnvelope({ message: z.string() });

export type SetPinRequest = z.infer<typeof setPinRequest>;
export type ChangePinRequest = z.infer<typeof changePinRequest>;
export type SecurityAnswer = z.infer<typeof securityAnswer>;
export type SecurityQuestion = z.infer<typeof securityQuestion>;
export type SecuritySettings = z.infer<typeof securitySettingsResponse>;
