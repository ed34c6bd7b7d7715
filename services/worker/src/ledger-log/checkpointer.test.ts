import { appendToStream, catchUp, startProjectionRunner } from '@peeks/db';
import { createTestDatabase, type TestDatabase } from '@peeks/db/testing';
import { latestCheckpoint, ledgerLog, logKeyFromSeed, logSize, witnessFileName } from '@peeks/ledger-store';
import { openNote, parseCheckpoint, parseVerifierKey } from '@peeks/log-verify';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMessage } from '../webhooks/signing.ts';
import { startCheckpointer, type LedgerLogSettings } from './checkpointer.ts';
import { witnessCheckpoint } from './witnesses.ts';

let database: TestDatabase;
let dir: string;
let server: Server;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'peeks-witness-'));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true });
  await database.drop();
});

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const settings = (): LedgerLogSettings => ({
  key: logKeyFromSeed('peeks-wallet.test/ledger', randomBytes(32).toString('base64')),
  checkpointSeconds: 1,
  witnesses: {
    dir,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/witness`,
    secret,
    timeoutMs: 2000,
  },
});

async function eventCount(): Promise<number> {
  const { count } = await database.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return count;
}

describe('checkpoints', () => {
  it('signs one covering new events within 15 s, and hands it to both witnesses', async () => {
    const log = settings();
    const onError = (error: unknown) => {
      throw error;
    };
    const runner = startProjectionRunner(database.db, [ledgerLog], { intervalMs: 50, onError });
    const checkpointer = startCheckpointer(database.db, log, { now: () => new Date(), onError });
    try {
      for (let version = 0; version < 5; version += 1)
        await appendToStream(database.db, 'witnessed', [{ type: 'Happened', data: { version } }], {
          expectedVersion: version,
        });
      const total = await eventCount();
      await expect
        .poll(async () => (await latestCheckpoint(database.db))?.treeSize, { timeout: 15_000, interval: 100 })
        .toBe(total);
    } finally {
      await checkpointer.stop();
      await runner.stop();
    }
    const checkpoint = await latestCheckpoint(database.db);
    const note = checkpoint?.note ?? '';
    expect(parseCheckpoint(openNote(note, parseVerifierKey(log.key.vkey))).treeSize).toBe(checkpoint?.treeSize);
    expect(await readFile(path.join(dir, witnessFileName(checkpoint?.treeSize ?? 0)), 'utf8')).toBe(note);
    const post = received.find((each) => each.body === note);
    expect(post).toBeDefined();
    const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = post?.headers ?? {};
    expect(signature).toBe(signMessage(secret, String(id), Number(timestamp), note));
    const witnesses = await database.db.selectFrom('ledger_log_witnesses').selectAll().orderBy('witness').execute();
    expect(witnesses.map((row) => [row.witness, row.tree_size, row.delivered])).toEqual([
      ['dir', checkpoint?.treeSize, true],
      ['url', checkpoint?.treeSize, true],
    ]);
  });

  it('never rewrites a witnessed file, and records the refusal', async () => {
    await catchUp(database.db, ledgerLog);
    const treeSize = await logSize(database.db);
    const file = path.join(dir, witnessFileName(treeSize));
    const before = await readFile(file, 'utf8');
    await witnessCheckpoint(
      database.db,
      { treeSize, note: 'a forged checkpoint\n' },
      { dir, timeoutMs: 1000 },
      new Date(),
    );
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(dir)).toContain(witnessFileName(treeSize));
    const row = await database.db
      .selectFrom('ledger_log_witnesses')
      .selectAll()
      .where('witness', '=', 'dir')
      .executeTakeFirstOrThrow();
    expect(row.delivered).toBe(false);
    expect(row.error).toMatch(/EEXIST/u);
  });
});
