import type { SecurityQuestion } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

export async function pinHashOf(db: Kysely<Database>, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('user_pins').select('pin_hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.pin_hash;
}

export async function savePin(db: Kysely<Database>, userId: number, pinHash: string, now: Date): Promise<void> {
  await db
    .insertInto('user_pins')
    .values({ user_id: userId, pin_hash: pinHash, set_at: now })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ pin_hash: pinHash, set_at: now }))
    .execute();
}

export function listSecurityQuestions(db: Kysely<Database>): Promise<SecurityQuestion[]> {
  return db.selectFrom('security_questions').select(['question_id', 'question']).orderBy('question_id').execute();
}

/** The user's chosen questions, in the order chosen, with their answers' hashes. */
export function chosenQuestions(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('user_security_answers as a')
    .innerJoin('security_questions as q', 'q.question_id', 'a.question_id')
    .select(['a.question_id', 'q.question', 'a.answer_hash'])
    .where('a.user_id', '=', userId)
    .orderBy('a.position')
    .execute();
}

/** How many of these ids are questions one may choose. */
export async function knownQuestions(db: Kysely<Database>, ids: number[]): Promise<number> {
  const rows = await db
    .selectFrom('security_questions')
    .select('question_id')
    .where('question_id', 'in', ids)
    .execute();
  return rows.length;
}

/** Replaces the user's choice with these answers (hashed), in one transaction. */
export async function saveSecurityAnswers(
  db: Kysely<Database>,
  userId: number,
  answers: { question_id: number; answer_hash: string }[],
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_security_answers').where('user_id', '=', userId).execute();
    await trx
      .insertInto('user_security_answers')
      .values(answers.map((each, index) => ({ user_id: userId, position: index + 1, ...each, set_at: now })))
      .execute();
  });
}
