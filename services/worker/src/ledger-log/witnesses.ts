import type { Database } from '@peeks/db';
import { witnessFileName, type StoredCheckpoint } from '@peeks/ledger-store';
import type { Kysely } from 'kysely';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signMessage } from '../webhooks/signing.ts';

/** Where each new checkpoint is sent, so that the database alone cannot take it back. */
export interface WitnessSettings {
  /** A folder: one file per checkpoint, never rewritten. */
  dir?: string | undefined;
  /** A URL each checkpoint is POSTed to, signed with `secret` as webhooks are. */
  url?: string | undefined;
  secret?: string | undefined;
  timeoutMs: number;
}

/**
 * Hands a checkpoint to each witness, and records how each delivery went.
 * A failure is recorded and not retried: the next checkpoint extends this
 * one, and a witness needs only the newest.
 */
export async function witnessCheckpoint(
  db: Kysely<Database>,
  checkpoint: StoredCheckpoint,
  settings: WitnessSettings,
  now: Date,
): Promise<void> {
  const deliveries: [string, () => Promise<void>][] = [];
  const { dir, url, secret } = settings;
  if (dir !== undefined)
    deliveries.push([
      'dir',
      async () => {
        await mkdir(dir, { recursive: true });
        // 'wx': a file already there is another copy of the same size's checkpoint, and stays as it is.
        await writeFile(path.join(dir, witnessFileName(checkpoint.treeSize)), checkpoint.note, { flag: 'wx' });
      },
    ]);
  if (url !== undefined && secret !== undefined)
    deliveries.push([
      'url',
      async () => {
        const id = `checkpoint-${checkpoint.treeSize}`;
        const timestamp = Math.floor(now.getTime() / 1000);
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signMessage(secret, id, timestamp, checkpoint.note),
          },
          body: checkpoint.note,
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`the witness answered ${response.status}`);
      },
    ]);
  for (const [witness, deliver] of deliveries) {
    let error: string | null = null;
    try {
      await deliver();
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    await db
      .insertInto('ledger_log_witnesses')
      .values({ witness, tree_size: checkpoint.treeSize, attempted_at: now, delivered: error === null, error })
      .onConflict((conflict) =>
        conflict.column('witness').doUpdateSet((eb) => ({
          tree_size: eb.ref('excluded.tree_size'),
          attempted_at: eb.ref('excluded.attempted_at'),
          delivered: eb.ref('excluded.delivered'),
          error: eb.ref('excluded.error'),
        })),
      )
      .execute();
  }
}
