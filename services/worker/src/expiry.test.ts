import { fingerprintRequest, runIdempotently } from '@peeks/db';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { createLogger, readConfig } from '@peeks/runtime';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_EXPIRY_QUEUE, SIGN_IN_RECORD_EXPIRY_QUEUE } from './expiry.ts';
import { startWorkers, type Workers } from './index.ts';

let database: TestDatabase;
let workers: Workers;
beforeAll(async () => {
  database = await createTestDatabase();
  workers = await startWorkers({
    databaseUrl: database.url,
    db: database.db,
    config: readConfig({}),
    log: createLogger({ LOG_LEVEL: 'silent' }),
  });
});
afterAll(async () => {
  await workers.stop();
  await database.drop();
});

async function keyCreatedHoursAgo(key: string, hours: number): Promise<void> {
  await runIdempotently(
    database.db,
    { scope: 'user-1', key, fingerprint: fingerprintRequest({ method: 'POST', path: '/x', body: null }) },
    () => Promise.resolve({ statusCode: 200, body: { response: 'success' } }),
  );
  await sql`UPDATE idempotency_keys SET created_at = now() - make_interval(hours => ${hours}) WHERE key = ${key}`.execute(
    database.db,
  );
}

async function remainingKeys(): Promise<string[]> {
  return (await database.db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map(
    (row) => row.key,
  );
}

describe('idempotency key expiry job', () => {
  it('is scheduled hourly', async () => {
    expect(await workers.boss.getSchedule(IDEMPOTENCY_KEY_EXPIRY_QUEUE)).toMatchObject({ cron: '17 * * * *' });
  });

  it('removes keys past their hours and keeps the rest', async () => {
    await keyCreatedHoursAgo('old-key', 25);
    await keyCreatedHoursAgo('fresh-key', 1);
    await workers.boss.send(IDEMPOTENCY_KEY_EXPIRY_QUEUE, {});
    await expect.poll(remainingKeys, { timeout: 15_000, interval: 200 }).toEqual(['fresh-key']);
  });
});

/** Rows of every kind the sign-in expiry looks at, one past its time and one not, named so the test can tell them apart. */
async function signInRecords(): Promise<void> {
  await sql`
    INSERT INTO users (username, email, password_hash, user_type, perms, birthday, country, currency, terms_accepted, created_at, updated_at)
    VALUES ('expiry_user', 'expiry@example.com', 'x', 'personal', '{}', '1990-01-01', 'CA', 'CAD', true, now(), now())
  `.execute(database.db);
  const user = sql`(SELECT user_id FROM users WHERE username = 'expiry_user')`;
  await sql`
    INSERT INTO sessions (session_key, user_id, csrf_token, created_at, last_seen_at, expires_at) VALUES
      (decode(repeat('aa', 32), 'hex'), ${user}, 'idle', now() - interval '2 hours', now() - interval '2 hours', now() - interval '90 minutes'),
      (decode(repeat('bb', 32), 'hex'), ${user}, 'live', now(), now(), now() + interval '30 minutes')
  `.execute(database.db);
  await sql`INSERT INTO rate_limit_hits (key, hits, window_ends_at) VALUES ('closed', 3, now() - interval '1 minute'), ('open', 3, now() + interval '1 minute')`.execute(
    database.db,
  );
  await sql`
    INSERT INTO password_recovery_codes (user_id, code_salt, code_hash, created_at, expires_at) VALUES
      (${user}, decode(repeat('01', 16), 'hex'), decode(repeat('02', 32), 'hex'), now() - interval '3 days', now() - interval '2 days'),
      (${user}, decode(repeat('03', 16), 'hex'), decode(repeat('04', 32), 'hex'), now() - interval '1 hour', now() - interval '45 minutes')
  `.execute(database.db);
}

async function remainingSignInRecords() {
  const { rows } = await sql<{ sessions: string[]; windows: string[]; codes: number }>`
    SELECT (SELECT array_agg(csrf_token ORDER BY csrf_token) FROM sessions) AS sessions,
           (SELECT array_agg(key ORDER BY key) FROM rate_limit_hits) AS windows,
           (SELECT count(*)::int FROM password_recovery_codes) AS codes
  `.execute(database.db);
  return rows[0];
}

describe('sign-in record expiry job', () => {
  it('is scheduled hourly', async () => {
    expect(await workers.boss.getSchedule(SIGN_IN_RECORD_EXPIRY_QUEUE)).toMatchObject({ cron: '23 * * * *' });
  });

  it('removes idle sessions, closed rate-limit windows and recovery codes a day past expiry, and keeps the rest', async () => {
    await signInRecords();
    expect(await remainingSignInRecords()).toEqual({
      sessions: ['idle', 'live'],
      windows: ['closed', 'open'],
      codes: 2,
    });
    await workers.boss.send(SIGN_IN_RECORD_EXPIRY_QUEUE, {});
    await expect
      .poll(remainingSignInRecords, { timeout: 15_000, interval: 200 })
      .toEqual({ sessions: ['live'], windows: ['open'], codes: 1 });
  });
});
