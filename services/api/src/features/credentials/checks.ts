import { errorCodes, type SecurityAnswer } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { refuse } from '../../plugins/error-envelope.ts';
import { hashPassword, verifyPassword } from '../accounts/index.ts';
import { foldAnswer } from './answers.ts';
import { chosenQuestions, pinHashOf } from './queries.ts';
import { checkWithTries, type SecretCheck } from './tries.ts';

/** A lock's refusal: 429 with Retry-After, the field named so the form shows it there. */
function lockedRefusal(reply: FastifyReply, check: SecretCheck, field: string, now: Date) {
  if (check.outcome !== 'right' && check.lockedUntil)
    reply.header('retry-after', String(Math.max(1, Math.ceil((check.lockedUntil.getTime() - now.getTime()) / 1000))));
  return refuse(429, errorCodes.secretLocked, { field });
}

/**
 * Passes when `pin` is the user's PIN; otherwise the refusal: 422 42241 when
 * the user has none, 422 42240 for a wrong one, 429 42940 once wrong PINs
 * locked it.
 */
export async function confirmPin(
  db: Kysely<Database>,
  reply: FastifyReply,
  user: { userId: number; pin: string; field: string },
  now: Date,
): Promise<void> {
  const stored = await pinHashOf(db, user.userId);
  if (stored === undefined) throw refuse(422, errorCodes.pinNotSet, { field: user.field });
  const check = await checkWithTries(db, user.userId, 'pin', now, () => verifyPassword(user.pin, stored));
  if (check.outcome === 'wrong') throw refuse(422, errorCodes.pinWrong, { field: user.field });
  if (check.outcome === 'locked') throw lockedRefusal(reply, check, user.field, now);
}

/** Whether the user has set a PIN, so a withdrawal needs it. */
export async function hasPin(db: Kysely<Database>, userId: number): Promise<boolean> {
  return (await pinHashOf(db, userId)) !== undefined;
}

/** The user's chosen questions, without their answers; empty when none were chosen. */
export async function questionsOf(db: Kysely<Database>, userId: number) {
  return (await chosenQuestions(db, userId)).map(({ question_id, question }) => ({ question_id, question }));
}

/**
 * Passes when the user chose no questions, or `answers` answers every chosen
 * one rightly; otherwise 422 42244 (missing), 422 42243 (wrong) or 429
 * 42940 (locked). Each set of answers is one try.
 */
export async function confirmSecurityAnswers(
  db: Kysely<Database>,
  reply: FastifyReply,
  user: { userId: number; answers: SecurityAnswer[] | undefined; field: string },
  now: Date,
): Promise<void> {
  const chosen = await chosenQuestions(db, user.userId);
  if (chosen.length === 0) return;
  const given = user.answers;
  if (given === undefined || given.length === 0)
    throw refuse(422, errorCodes.securityAnswersNeeded, { field: user.field });
  const check = await checkWithTries(db, user.userId, 'security-answers', now, async () => {
    const results = await Promise.all(
      chosen.map(async (question) => {
        const answer = given.find((each) => each.question_id === question.question_id);
        return answer !== undefined && (await verifyPassword(foldAnswer(answer.answer), question.answer_hash));
      }),
    );
    return results.every(Boolean);
  });
  if (check.outcome === 'wrong') throw refuse(422, errorCodes.securityAnswersWrong, { field: user.field });
  if (check.outcome === 'locked') throw lockedRefusal(reply, check, user.field, now);
}

export const hashAnswer = (answer: string) => hashPassword(foldAnswer(answer));
export const hashPin = (pin: string) => hashPassword(pin);
