import { appendToStream, catchUp, connectDatabase, type Database } from '@peeks/db';
import { createTestDatabase, databaseUrl, tamper, withMaintenanceClient, type TestDatabase } from '@peeks/db/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeLedgerReport } from '../report.ts';
import { verifyLedger } from '../verify.ts';
import { latestCheckpoint, makeCheckpoint } from './checkpoints.ts';
import { logKeyFromSeed } from './log-key.ts';
import { logSize } from './log-store.ts';
import { checkpointToExtend, witnessFileName } from './outside-checkpoint.ts';
import { ledgerLog } from './sequencer.ts';

const key = logKeyFromSeed('peeks-wallet.test/ledger', randomBytes(32).toString('base64'));
const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'peeks-verify-log-'));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true });
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase({ max: 4 });
  cleanups.push(() => database.drop());
  return database;
}

let round = 0;
/** Appends to a few streams, sequences everything (polling past other databases' open transactions) and signs. */
async function grow(db: Kysely<Database>, streams = 3, each = 3): Promise<string> {
  round += 1;
  for (let stream = 0; stream < streams; stream += 1)
    for (let version = 0; version < each; version += 1)
      await appendToStream(db, `audited-${round}-${stream}`, [{ type: 'Happened', data: { version } }], {
        expectedVersion: version,
      });
  const { count } = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  await expect
    .poll(
      async () => {
        await catchUp(db, ledgerLog);
        return logSize(db);
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(count);
  await makeCheckpoint(db, key, new Date());
  return (await latestCheckpoint(db))?.note ?? '';
}

const verify = (db: Kysely<Database>, outside?: { note: string; source: string }) =>
  verifyLedger(db, { log: { vkey: key.vkey, outside } });

describe('ledger:verify and the ledger log', () => {
  it('passes an untouched database, with an auditor’s checkpoint and with the witness directory', async () => {
    const { db } = await freshDatabase();
    const early = await grow(db);
    const latest = await grow(db);
    const report = await verify(db, { note: early, source: 'auditor.checkpoint' });
    expect(report.log.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.log).toMatchObject({ leaves: 18, checkpointsChecked: 2, signaturesChecked: true });
    expect(describeLedgerReport(report)).toContain('extends the checkpoint of 9 leaves from auditor.checkpoint');

    const witnessDir = path.join(dir, 'untouched');
    await rm(witnessDir, { recursive: true, force: true });
    await mkdir(witnessDir);
    await writeFile(path.join(witnessDir, witnessFileName(9)), early);
    await writeFile(path.join(witnessDir, witnessFileName(18)), latest);
    const newest = await checkpointToExtend(undefined, witnessDir);
    expect(newest?.source).toBe(path.join(witnessDir, witnessFileName(18)));
    expect((await verify(db, newest)).log.extends).toEqual({ treeSize: 18, source: newest?.source });
  });

  it("fails once a stream's last event is deleted, naming it", async () => {
    const { db } = await freshDatabase();
    await grow(db);
    const lastOfStream = await db
      .selectFrom('events')
      .select(['position', 'stream_id', 'stream_version'])
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await tamper(
      db,
      sql`DELETE FROM events WHERE stream_id = ${lastOfStream.stream_id} AND stream_version = ${lastOfStream.stream_version}`,
    );
    const report = await verify(db);
    expect(report.ok).toBe(false);
    expect(report.chains.breaks).toEqual([]);
    expect(report.log.problems).toContain(
      // A leaf names its event by position: with the event gone, that is all there is to say.
      `log index 8 (event ${lastOfStream.position}): the event is missing`,
    );
    expect(report.log.problems).toContain('checkpoint 9: the rebuilt log has another root');
  });

  it('fails after the database is restored from an earlier pg_dump, against an auditor and the witnesses', async () => {
    const live = await freshDatabase();
    await grow(live.db);
    const dump = path.join(dir, 'earlier.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, live.url]);
    const auditors = await grow(live.db);
    const witnessDir = path.join(dir, 'witnessed');
    await mkdir(witnessDir, { recursive: true });
    await writeFile(path.join(witnessDir, witnessFileName(18)), auditors);

    const name = `restored_${randomBytes(4).toString('hex')}`;
    await withMaintenanceClient((client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0`));
    const url = databaseUrl(live.url, name);
    await run('pg_restore', ['--no-owner', '--dbname', url, dump]);
    const restored = connectDatabase(url, { max: 2, applicationName: 'peeks-test' });
    cleanups.push(async () => {
      await restored.close();
      await withMaintenanceClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    });

    // Consistent in itself: nothing inside the database shows the rollback.
    expect((await verify(restored.db)).ok).toBe(true);
    const againstAuditor = await verify(restored.db, { note: auditors, source: 'auditor.checkpoint' });
    expect(againstAuditor.ok).toBe(false);
    expect(againstAuditor.log.problems).toEqual([
      'the log is shorter than the checkpoint from auditor.checkpoint: 9 leaves, it has 18; events were removed or the database was restored to an earlier state',
    ]);
    const againstWitnesses = await verify(restored.db, await checkpointToExtend(undefined, witnessDir));
    expect(againstWitnesses.ok).toBe(false);
    expect(againstWitnesses.log.problems[0]).toMatch(/^the log is shorter than the checkpoint from .*witnessed/u);

    // Written on after the rollback, the log grows past the auditor's size with another history.
    await grow(restored.db, 4, 3);
    const rewritten = await verify(restored.db, { note: auditors, source: 'auditor.checkpoint' });
    expect(rewritten.log.problems).toEqual([
      "the log's first 18 leaves have another root than the checkpoint from auditor.checkpoint: its history was rewritten",
    ]);
  });

  it('refuses a checkpoint not signed by the log key', async () => {
    const { db } = await freshDatabase();
    const note = await grow(db);
    // The size changed after signing: a longer log than was ever signed.
    const forged = note.replace('\n9\n', '\n10\n');
    expect(forged).not.toBe(note);
    const report = await verify(db, { note: forged, source: 'forged' });
    expect(report.log.problems).toEqual([
      'the checkpoint from forged cannot be used: the signature by peeks-wallet.test/ledger does not match the note',
    ]);
  });
});
