import type { Database } from '@peeks/db';
import { leafHash, NoteError, openNote, parseCheckpoint, parseVerifierKey, type VerifierKey } from '@peeks/log-verify';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { rootAt } from './log-store.ts';
import { ledgerLog } from './sequencer.ts';
import { GrowingTree } from './tree-shape.ts';

/** A checkpoint kept outside the database (an auditor's file, the newest witnessed), and where it came from. */
export interface OutsideCheckpoint {
  note: string;
  source: string;
}

export interface LogReport {
  /** Leaves in the log, rebuilt from their events. */
  leaves: number;
  checkpointsChecked: number;
  /** False without a verifier key: roots were checked, signatures not. */
  signaturesChecked: boolean;
  /** The outside checkpoint the log was proved to extend, if one was given and it does. */
  extends: { treeSize: number; source: string } | null;
  /** Each a sentence naming what is wrong. */
  problems: string[];
}

const BATCH = 10_000;
const emptyRoot = () => createHash('sha256').digest();

/**
 * Rebuilds the ledger log from the events its leaves name and checks, in
 * the caller's snapshot: every leaf's event is there with the hash the
 * leaf holds; every event the sequencer has passed has its leaf; every
 * stored checkpoint has the rebuilt root and a good signature; and, given
 * a checkpoint kept outside, that the log extends it. Without a verifier
 * key the signatures are not checked (the report says so).
 */
export async function verifyLedgerLog(
  trx: Kysely<Database>,
  options: { vkey?: string | undefined; outside?: OutsideCheckpoint | undefined } = {},
): Promise<LogReport> {
  const problems: string[] = [];
  let key: VerifierKey | null = null;
  if (options.vkey !== undefined) key = parseVerifierKey(options.vkey);
  const checkpoints = await trx
    .selectFrom('ledger_log_checkpoints')
    .select(['tree_size', 'root_hash', 'note'])
    .orderBy('tree_size')
    .execute();

  const outside = options.outside ? readOutside(options.outside, key, problems) : null;
  const wanted = new Set([...checkpoints.map((row) => row.tree_size), ...(outside ? [outside.treeSize] : [])]);
  const roots = new Map<number, Buffer>();
  const tree = new GrowingTree();
  if (wanted.has(0)) roots.set(0, emptyRoot());
  for (;;) {
    const { rows } = await sql<{
      log_index: number;
      event_position: number;
      stream_id: string | null;
      stream_version: number | null;
      leaf_data: Buffer;
      hash: string | null;
    }>`
      SELECT l.log_index, l.event_position, e.stream_id, e.stream_version, l.leaf_data, e.hash
      FROM ledger_log_leaves l
      LEFT JOIN events e ON e.position = l.event_position
      WHERE l.log_index >= ${tree.size} ORDER BY l.log_index LIMIT ${BATCH}
    `.execute(trx);
    for (const row of rows) {
      const where =
        row.stream_id === null
          ? `log index ${row.log_index} (event ${row.event_position})`
          : `log index ${row.log_index} (${row.stream_id} version ${row.stream_version})`;
      if (row.log_index !== tree.size) {
        problems.push(`the log skips from index ${tree.size - 1} to ${row.log_index}: leaves are missing`);
        return { leaves: tree.size, checkpointsChecked: 0, signaturesChecked: false, extends: null, problems };
      }
      if (row.hash === null) problems.push(`${where}: the event is missing`);
      else if (row.hash !== row.leaf_data.toString('hex'))
        problems.push(`${where}: the event's hash is not the leaf's`);
      // The leaf as the event says it is: a missing or changed event changes every root after it.
      tree.push(leafHash(row.hash === null ? Buffer.alloc(0) : Buffer.from(row.hash, 'hex')));
      if (wanted.has(tree.size)) roots.set(tree.size, tree.root());
    }
    if (rows.length < BATCH) break;
  }
  problems.push(...(await unsequencedEvents(trx)));
  if (tree.size > 0 && !(await rootAt(trx, tree.size)).equals(tree.root()))
    problems.push(`the stored tree's root at ${tree.size} is not the rebuilt one`);

  for (const row of checkpoints) {
    const rebuilt = roots.get(row.tree_size);
    const name = `checkpoint ${row.tree_size}`;
    if (key) {
      try {
        const body = parseCheckpoint(openNote(row.note, key));
        if (body.treeSize !== row.tree_size || !body.rootHash.equals(row.root_hash))
          problems.push(`${name}: its note says otherwise than its row`);
      } catch (error) {
        problems.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (!rebuilt) problems.push(`${name}: the log is shorter (${tree.size} leaves)`);
    else if (!rebuilt.equals(row.root_hash)) problems.push(`${name}: the rebuilt log has another root`);
  }

  let extendsOutside: LogReport['extends'] = null;
  if (outside) {
    const rebuilt = roots.get(outside.treeSize);
    if (outside.treeSize > tree.size)
      problems.push(
        `the log is shorter than the checkpoint from ${outside.source}: ${tree.size} leaves, it has ${outside.treeSize}; events were removed or the database was restored to an earlier state`,
      );
    else if (!rebuilt?.equals(outside.rootHash))
      problems.push(
        `the log's first ${outside.treeSize} leaves have another root than the checkpoint from ${outside.source}: its history was rewritten`,
      );
    else extendsOutside = { treeSize: outside.treeSize, source: outside.source };
  }
  return {
    leaves: tree.size,
    checkpointsChecked: checkpoints.length,
    signaturesChecked: key !== null,
    extends: extendsOutside,
    problems,
  };
}

function readOutside(
  outside: OutsideCheckpoint,
  key: VerifierKey | null,
  problems: string[],
): { treeSize: number; rootHash: Buffer; source: string } | null {
  try {
    const text = key ? openNote(outside.note, key) : outside.note.slice(0, outside.note.lastIndexOf('\n\n') + 1);
    const body = parseCheckpoint(text);
    if (key && body.origin !== key.name)
      throw new NoteError(`it is a checkpoint of ${body.origin}, not of ${key.name}`);
    return { treeSize: body.treeSize, rootHash: body.rootHash, source: outside.source };
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    problems.push(`the checkpoint from ${outside.source} cannot be used: ${error.message}`);
    return null;
  }
}

/** Events the sequencer has passed that have no leaf: a leaf deleted, or the log rewritten around it. */
async function unsequencedEvents(trx: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ stream_id: string; stream_version: number }>`
    SELECT e.stream_id, e.stream_version FROM events e, projection_checkpoints c
    WHERE c.name = ${ledgerLog.name} AND (e.transaction_id, e.position) <= (c.transaction_id, c.position)
      AND NOT EXISTS (
        SELECT 1 FROM ledger_log_leaves l WHERE l.event_position = e.position
      )
    ORDER BY e.position LIMIT 21
  `.execute(trx);
  const found = rows
    .slice(0, 20)
    .map((row) => `${row.stream_id} version ${row.stream_version}: sequenced, but not in the log`);
  if (rows.length > 20) found.push('and more events sequenced but not in the log');
  return found;
}
