import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './pool.ts';
import { NoSuitableHost, newDatabaseClient, serverFits } from './session-target.ts';
import { startScratchServer, type ScratchServer } from './testing/scratch-server.ts';

describe('serverFits', () => {
  const primary = { readOnly: false, inRecovery: false };
  const standby = { readOnly: true, inRecovery: true };
  const readOnlyPrimary = { readOnly: true, inRecovery: false };

  it('follows libpq: read-write needs writes, primary needs no recovery, standby the opposite', () => {
    expect(serverFits('read-write', primary)).toBe(true);
    expect(serverFits('read-write', standby)).toBe(false);
    expect(serverFits('read-write', readOnlyPrimary)).toBe(false);
    expect(serverFits('primary', readOnlyPrimary)).toBe(true);
    expect(serverFits('primary', standby)).toBe(false);
    expect(serverFits('standby', standby)).toBe(true);
    expect(serverFits('standby', primary)).toBe(false);
    expect(serverFits('read-only', readOnlyPrimary)).toBe(true);
    expect(serverFits('read-only', primary)).toBe(false);
    expect(serverFits('any', standby)).toBe(true);
  });
});

describe('multi-host DATABASE_URL on two real servers', () => {
  let first: ScratchServer;
  let second: ScratchServer;
  // A loopback port nothing listens on: a host that is down.
  const down = '127.0.0.1:1';

  beforeAll(async () => {
    [first, second] = await Promise.all([startScratchServer(), startScratchServer()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first.stop(), second.stop()]);
  });

  const hostList = (...ports: (number | string)[]) =>
    ports.map((port) => (typeof port === 'number' ? `127.0.0.1:${port}` : port)).join(',');
  const url = (hosts: string, target: string) => `postgres://postgres@${hosts}/postgres?target_session_attrs=${target}`;
  const portOf = async (handle: ReturnType<typeof connectDatabase>) =>
    (await sql<{ port: number }>`SELECT inet_server_port() AS port`.execute(handle.db)).rows[0]?.port;

  it('connects the pool to the writable host, past a host that is down and a read-only one', async () => {
    first.setReadOnly(true);
    second.setReadOnly(false);
    const handle = connectDatabase(url(hostList(down, first.port, second.port), 'read-write'), { max: 2 });
    try {
      expect(await portOf(handle)).toBe(second.port);
      await sql`CREATE TEMP TABLE written (id int)`.execute(handle.db);
    } finally {
      await handle.close();
    }
  });

  it('takes the first host that answers when any server will do', async () => {
    first.setReadOnly(true);
    const handle = connectDatabase(url(hostList(down, first.port, second.port), 'any'), { max: 1 });
    try {
      expect(await portOf(handle)).toBe(first.port);
    } finally {
      await handle.close();
    }
  });

  it('finds the promoted host after the old one cut its connections and became read-only', async () => {
    first.setReadOnly(false);
    second.setReadOnly(true);
    const handle = connectDatabase(url(hostList(first.port, second.port), 'read-write'), {
      max: 2,
      applicationName: 'switching',
    });
    try {
      expect(await portOf(handle)).toBe(first.port);
      // What a switchover does: the old primary turns read-only and ends its sessions; the standby is promoted.
      first.setReadOnly(true);
      second.setReadOnly(false);
      const admin = new pg.Client({ connectionString: first.url });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'switching'");
      await admin.end();
      let port: number | undefined;
      // The first statement may meet the cut connection; a fresh one searches the hosts again.
      for (let attempt = 0; attempt < 5 && port !== second.port; attempt++)
        port = await portOf(handle).catch(() => undefined);
      expect(port).toBe(second.port);
    } finally {
      await handle.close();
    }
  });

  it('says no host fits, naming the hosts and never a password', async () => {
    first.setReadOnly(true);
    second.setReadOnly(true);
    const handle = connectDatabase(
      `postgres://postgres:hunter2@${hostList(first.port, second.port)}/postgres?target_session_attrs=read-write`,
      { max: 1 },
    );
    try {
      const error = await portOf(handle).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NoSuitableHost);
      expect((error as Error).message).toBe(
        `no database host is read-write (tried 127.0.0.1:${first.port}, 127.0.0.1:${second.port})`,
      );
    } finally {
      await handle.close();
    }
  });

  it('opens a LISTEN connection on the writable host, where NOTIFY is sent', async () => {
    first.setReadOnly(true);
    second.setReadOnly(false);
    const client = newDatabaseClient(url(hostList(first.port, second.port), 'read-write'));
    await client.connect();
    try {
      const { rows } = await client.query<{ port: number }>('SELECT inet_server_port() AS port');
      expect(rows[0]?.port).toBe(second.port);
    } finally {
      await client.end();
    }
  });
});
