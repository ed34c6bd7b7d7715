import { openNote, parseCheckpoint, parseVerifierKey } from '@peeks/log-verify';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOG_KEY_FILE, loadLogKey, logKeyFromSeed, signCheckpoint } from './log-key.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true });
});

describe('the log key', () => {
  it('is made once in DATA_DIR, readable by its owner only, and the same on every later start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'peeks-log-key-'));
    dirs.push(dataDir);
    const [first, second] = await Promise.all([
      loadLogKey({ origin: 'example.test/log', dataDir }),
      loadLogKey({ origin: 'example.test/log', dataDir }),
    ]);
    expect([first.made, second.made].sort()).toEqual([false, true]);
    expect(first.key.vkey).toBe(second.key.vkey);
    const file = path.join(dataDir, LOG_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = await loadLogKey({ origin: 'example.test/log', dataDir });
    expect(again).toMatchObject({ made: false, key: { vkey: first.key.vkey } });
    // LEDGER_LOG_KEY, when set, is the key: the file is not read.
    const seed = (await readFile(file, 'utf8')).trim();
    const given = await loadLogKey({ origin: 'example.test/log', dataDir: '/nonexistent', seed });
    expect(given.key.vkey).toBe(first.key.vkey);
  });

  it('signs checkpoints its verifier key opens', () => {
    const key = logKeyFromSeed('example.test/log', Buffer.alloc(32, 1).toString('base64'));
    const note = signCheckpoint(key, 42, Buffer.alloc(32, 9));
    const checkpoint = parseCheckpoint(openNote(note, parseVerifierKey(key.vkey)));
    expect(checkpoint).toMatchObject({ origin: 'example.test/log', treeSize: 42, rootHash: Buffer.alloc(32, 9) });
    expect(() => logKeyFromSeed('example.test/log', 'c2hvcnQ=')).toThrow(/32-byte/u);
  });
});
