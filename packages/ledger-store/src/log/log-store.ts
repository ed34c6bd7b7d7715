import type { Database } from '@peeks/db';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { leafHash } from '@peeks/log-verify';
import {
  completeSubtrees,
  consistencyProofRanges,
  foldComplete,
  foldSubtrees,
  inclusionProofRanges,
  storedCover,
  type LeafRange,
  type TreeNode,
} from './tree-shape.ts';

/** How many leaves the ledger log has: its next log index. */
export async function logSize(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('ledger_log_leaves')
    .select((eb) => eb.fn.max<number | null>('log_index').as('last'))
    .executeTakeFirst();
  return row?.last == null ? 0 : row.last + 1;
}

const keyOf = (node: TreeNode) => `${node.level}/${node.index}`;

/**
 * The hashes of these complete subtrees, in two queries: each is read where
 * its level is stored, or folded from the stored nodes or leaves it covers;
 * throws if one is missing.
 */
async function subtreeHashes(db: Kysely<Database>, nodes: readonly TreeNode[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  if (nodes.length === 0) return found;
  const covers = nodes.map((node) => ({ node, ...storedCover(node) }));
  const wantedNodes = covers.flatMap(({ base, start, count }) =>
    base === 0 ? [] : Array.from({ length: count }, (_, offset) => ({ level: base, index: start + offset })),
  );
  const wantedLeaves = covers.flatMap(({ base, start, count }) =>
    base === 0 ? Array.from({ length: count }, (_, offset) => start + offset) : [],
  );
  const stored = new Map<string, Buffer>();
  if (wantedNodes.length > 0) {
    const { rows } = await sql<{ level: number; node_index: number; hash: Buffer }>`
      SELECT n.level, n.node_index, n.hash
      FROM unnest(${wantedNodes.map((node) => node.level)}::smallint[], ${wantedNodes.map((node) => node.index)}::bigint[]) AS w(level, node_index)
      JOIN ledger_log_nodes n ON n.level = w.level AND n.node_index = w.node_index
    `.execute(db);
    for (const row of rows) stored.set(keyOf({ level: row.level, index: row.node_index }), row.hash);
  }
  if (wantedLeaves.length > 0) {
    const { rows } = await sql<{ log_index: number; leaf_data: Buffer }>`
      SELECT log_index, leaf_data FROM ledger_log_leaves WHERE log_index = ANY(${wantedLeaves}::bigint[])
    `.execute(db);
    for (const row of rows) stored.set(keyOf({ level: 0, index: row.log_index }), leafHash(row.leaf_data));
  }
  for (const { node, base, start, count } of covers) {
    const run = Array.from({ length: count }, (_, offset) => stored.get(keyOf({ level: base, index: start + offset })));
    if (run.some((hash) => hash === undefined))
      throw new Error(`the ledger log lacks node ${String(node.index)} of level ${String(node.level)}`);
    found.set(keyOf(node), foldComplete(run as Buffer[]));
  }
  return found;
}

/** The hash of each range (as RFC 9162's recursion names them), from the stored complete subtrees. */
async function rangeHashes(db: Kysely<Database>, ranges: readonly LeafRange[]): Promise<Buffer[]> {
  const shapes = ranges.map(completeSubtrees);
  const hashes = await subtreeHashes(db, shapes.flat());
  return shapes.map((shape) => foldSubtrees(shape.map((node) => hashes.get(keyOf(node)) as Buffer)));
}

/** MTH of the first `size` leaves; the empty tree's is SHA-256 of nothing. */
export async function rootAt(db: Kysely<Database>, size: number): Promise<Buffer> {
  if (size === 0) return createHash('sha256').digest();
  const [root] = await rangeHashes(db, [{ start: 0, end: size }]);
  return root as Buffer;
}

/** The hashes of complete subtrees of the first `size` leaves, left to right: what an append builds on. */
export async function frontierAt(db: Kysely<Database>, size: number): Promise<Buffer[]> {
  const shape = completeSubtrees({ start: 0, end: size });
  const hashes = await subtreeHashes(db, shape);
  return shape.map((node) => hashes.get(keyOf(node)) as Buffer);
}

/** PATH(leafIndex, D[0:treeSize]); the caller checks leafIndex < treeSize ≤ the log's size. */
export function inclusionProof(db: Kysely<Database>, leafIndex: number, treeSize: number): Promise<Buffer[]> {
  return rangeHashes(db, inclusionProofRanges(leafIndex, treeSize));
}

/** PROOF(from, D[0:to]); empty when from is 0 or equals to. */
export function consistencyProof(db: Kysely<Database>, from: number, to: number): Promise<Buffer[]> {
  return rangeHashes(db, consistencyProofRanges(from, to));
}
