import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCheckpoint } from './checkpoint.ts';
import { formatVerifierKey, keyIdOf } from './note.ts';
import { verifyReceipt } from './receipt.ts';
import { referenceInclusionProof, referenceRoot } from './testing/reference-tree.ts';

const origin = 'wallet.example/ledger';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
const vkey = formatVerifierKey(origin, raw);

function signedCheckpoint(leaves: Buffer[], name = origin): string {
  const text = formatCheckpoint({ origin: name, treeSize: leaves.length, rootHash: referenceRoot(leaves) });
  const blob = Buffer.concat([keyIdOf(name, raw), sign(null, Buffer.from(text), privateKey)]);
  return `${text}\n\u2014 ${name} ${blob.toString('base64')}\n`;
}

const leaves = Array.from({ length: 13 }, (_, index) => Buffer.alloc(32, index));
const receipt = {
  transaction: { tx_id: 'tx-1' },
  leaf_index: 9,
  tree_size: 13,
  leaf_data: leaves[9]?.toString('hex'),
  proof: referenceInclusionProof(9, leaves).map((hash) => hash.toString('base64')),
  checkpoint: signedCheckpoint(leaves),
};

describe('receipts', () => {
  it('a receipt from the log checks out', () => {
    expect(verifyReceipt(receipt, vkey)).toEqual({ origin, treeSize: 13, leafIndex: 9 });
  });

  it('says what is wrong with a bad one', () => {
    expect(() => verifyReceipt({ ...receipt, leaf_index: 8 }, vkey)).toThrow(/another root/u);
    expect(() => verifyReceipt({ ...receipt, leaf_data: leaves[8]?.toString('hex') }, vkey)).toThrow(/another root/u);
    expect(() => verifyReceipt({ ...receipt, tree_size: 14 }, vkey)).toThrow(/13 leaves, the proof of 14/u);
    expect(() => verifyReceipt({ ...receipt, checkpoint: receipt.checkpoint.replace('13', '14') }, vkey)).toThrow(
      /does not match/u,
    );
    const otherLog = formatVerifierKey('other.example/log', raw);
    expect(() => verifyReceipt(receipt, otherLog)).toThrow(/no signature by other.example/u);
    expect(() => verifyReceipt({ ...receipt, proof: 'x' }, vkey)).toThrow(/proof is missing or of the wrong kind/u);
  });
});

describe('peeks-verify', () => {
  const run = promisify(execFile);
  const cli = new URL('cli.ts', import.meta.url).pathname;
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true });
  });

  it('prints the result and exits 0 when the receipt holds, 1 when it does not', async () => {
    dir = await mkdtemp(join(tmpdir(), 'peeks-verify-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, JSON.stringify(receipt));
    await writeFile(bad, JSON.stringify({ ...receipt, leaf_index: 3 }));
    const { stdout } = await run(process.execPath, [cli, good, '--key', vkey]);
    expect(stdout).toBe(`In the ledger: leaf 9 of ${origin}, checkpoint 13, signed\n`);
    await expect(run(process.execPath, [cli, bad, '--key', vkey])).rejects.toMatchObject({
      code: 1,
      stdout: 'Not proven: the inclusion proof leads to another root\n',
    });
    await expect(run(process.execPath, [cli, good])).rejects.toMatchObject({ code: 2 });
  });
});
