import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';

/** A secret made once, on the first start, and shared by every API process. */
export async function platformSecret(db: Kysely<Database>, name: string, now: Date): Promise<Buffer> {
  await db
    .insertInto('platform_secrets')
    .values({ name, secret: randomBytes(32), created_at: now })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  const { secret } = await db
    .selectFrom('platform_secrets')
    .select('secret')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return secret;
}
