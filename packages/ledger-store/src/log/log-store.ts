import type { Database } from '@peeks/db';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  completeSubtrees,
  consistencyProofRanges,
  foldSubtrees,
  inclusionProofRanges,
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

/** The stored hashes of these complete subtrees, in one query; throws if one is missing. */
async function subtreeHashes(db: Kysely<Database>, nodes: readonly TreeNode[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  if (nodes.length === 0) return found;
  const { rows } = await sql<{ level: number; node_index: number; hash: Buffer }>`
    SELECT n.level, n.node_index, n.hash
    FROM unnest(${nodes.map((node) => node.level)}::smallint[], ${nodes.map((node) => node.index)}::bigint[]) AS w(level, node_index)
    JOIN ledger_log_nodes n ON n.level = w.level AND n.node_index = w.node_index
  `.execute(db);
  for (const row of rows) found.set(keyOf({ level: row.level, index: row.node_index }), row.hash);
  for (const node of nodes)
    if (!found.has(keyOf(node))) throw new Error(`the ledger log lacks node ${node.index} of level ${node.level}`);
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
