import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

/** What each open transaction is to do once it has committed, by transaction. */
const hooksOf = new WeakMap<Kysely<Database>, (() => void)[]>();

/**
 * Runs the transaction `open` begins (enlisting it), then what `afterCommit`
 * asked of it, once it has committed; nothing when it rolled back. For a
 * transaction begun elsewhere (runIdempotently's); `transaction` below is
 * the plain case.
 */
export async function withCommitHooks<T>(open: (enlist: (trx: Kysely<Database>) => void) => Promise<T>): Promise<T> {
  const hooks: (() => void)[] = [];
  const result = await open((trx) => {
    hooksOf.set(trx, hooks);
  });
  for (const hook of hooks) hook();
  return result;
}

/** `work` in a new transaction of `db`, after which what `afterCommit` asked of it runs. */
export const transaction = <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  withCommitHooks((enlist) =>
    db.transaction().execute((trx) => {
      enlist(trx);
      return work(trx);
    }),
  );

/**
 * Runs `hook` once `trx` has committed. `trx` must have been begun by
 * `transaction` or `withCommitHooks`: anything else is refused loudly, so a
 * new caller cannot drop the hook unnoticed.
 */
export function afterCommit(trx: Kysely<Database>, hook: () => void): void {
  const hooks = hooksOf.get(trx);
  if (!hooks) throw new Error('afterCommit: the transaction was not begun by transaction() or withCommitHooks()');
  hooks.push(hook);
}
