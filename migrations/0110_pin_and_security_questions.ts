import { sql, type Kysely } from 'kysely';

/**
 * The Security tab's PIN and security questions (issue 24).
 *
 * - `user_pins`: one PIN per user, kept only as an argon2id PHC string like
 *   passwords. A PIN has few digits, so the hash alone would not stop a
 *   guesser who got the table; the tries below stop one who has not.
 * - `security_questions`: the questions to choose from. The spec names none,
 *   so a small list is seeded; ids are fixed so forms and tests name them.
 * - `user_security_answers`: a user's two chosen questions (positions 1 and
 *   2, each question once), the answers hashed after folding case and
 *   spaces, so "  Rex " matches "rex".
 * - `secret_tries`: wrong PINs and wrong answers per user and kind. Five in a
 *   row lock that kind for a while; a right one clears the count. Kept in the
 *   database, not in a process, so every API process counts the same tries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_pins (
      user_id bigint PRIMARY KEY REFERENCES users,
      pin_hash text NOT NULL CHECK (pin_hash LIKE '$argon2id$%'),
      set_at timestamptz NOT NULL
    );

    CREATE TABLE security_questions (
      question_id integer PRIMARY KEY,
      question text NOT NULL UNIQUE
    );
    INSERT INTO security_questions (question_id, question) VALUES
      (1, 'What was the name of your first pet?'),
      (2, 'In what city were you born?'),
      (3, 'What is your mother''s maiden name?'),
      (4, 'What was the name of your first school?'),
      (5, 'What was the make of your first car?'),
      (6, 'What is the name of the street you grew up on?'),
      (7, 'What was your childhood nickname?'),
      (8, 'What is the title of your favourite book?');

    CREATE TABLE user_security_answers (
      user_id bigint NOT NULL REFERENCES users,
      position smallint NOT NULL CHECK (position IN (1, 2)),
      question_id integer NOT NULL REFERENCES security_questions,
      answer_hash text NOT NULL CHECK (answer_hash LIKE '$argon2id$%'),
      set_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, position),
      UNIQUE (user_id, question_id)
    );

    CREATE TABLE secret_tries (
      user_id bigint NOT NULL REFERENCES users,
      secret text NOT NULL CHECK (secret IN ('pin', 'security-answers')),
      failures integer NOT NULL CHECK (failures >= 0),
      locked_until timestamptz,
      PRIMARY KEY (user_id, secret)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE secret_tries, user_security_answers, security_questions, user_pins`.execute(db);
}
