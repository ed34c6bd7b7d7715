import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutsideCheckpoint } from './verify-log.ts';

/** The file a witness directory keeps a checkpoint of `treeSize` leaves in; zero-padded, so names sort as sizes do. */
export const witnessFileName = (treeSize: number) => `checkpoint-${String(treeSize).padStart(20, '0')}`;

const witnessFile = /^checkpoint-\d{20}$/u;

/**
 * The checkpoint `ledger:verify` proves the log extends: the file given
 * (one an auditor kept), else the newest in the witness directory, else none.
 */
export async function checkpointToExtend(
  file: string | undefined,
  witnessDir: string | undefined,
): Promise<OutsideCheckpoint | undefined> {
  if (file !== undefined) return { note: await readFile(file, 'utf8'), source: file };
  if (witnessDir === undefined) return undefined;
  const newest = (await readdir(witnessDir))
    .filter((name) => witnessFile.test(name))
    .sort()
    .at(-1);
  if (newest === undefined) return undefined;
  const source = path.join(witnessDir, newest);
  return { note: await readFile(source, 'utf8'), source };
}
