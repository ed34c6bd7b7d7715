import { newDatabaseClient } from '@peeks/db';
import { startScratchServer, type ScratchServer } from '@peeks/db/testing';
import { createLogger } from '@peeks/runtime';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseNotifications } from './database-notifications.ts';

const CHANNEL = 'ledger_wallets';
let first: ScratchServer;
let second: ScratchServer;

beforeAll(async () => {
  [first, second] = await Promise.all([startScratchServer(), startScratchServer({ readOnly: true })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([first.stop(), second.stop()]);
});

const onServer = async <T>(server: ScratchServer, work: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};
const eventually = async (condition: () => boolean) => {
  for (let tries = 0; tries < 250; tries++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('not within 5 s');
};

describe('DatabaseNotifications on a multi-host DATABASE_URL', () => {
  it('listens on the writable host, and after a failover listens again on the promoted one', async () => {
    const url = `postgres://postgres@127.0.0.1:${first.port},127.0.0.1:${second.port}/postgres?target_session_attrs=read-write`;
    const notifications = new DatabaseNotifications({
      newClient: () => newDatabaseClient(url, { application_name: 'listen-test' }),
      log: createLogger({ LOG_LEVEL: 'silent' }),
      retryMs: 20,
    });
    const heard: string[] = [];
    let resumed = 0;
    try {
      await notifications.listen(CHANNEL, {
        notified: (payload) => heard.push(payload ?? ''),
        resumed: () => (resumed += 1),
      });
      await onServer(first, (client) => client.query(`SELECT pg_notify('${CHANNEL}', 'before')`));
      await eventually(() => heard.includes('before'));

      // A switchover: the old primary turns read-only and cuts its sessions, the standby is promoted.
      first.setReadOnly(true);
      second.setReadOnly(false);
      await onServer(first, (client) =>
        client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listen-test'"),
      );
      await eventually(() => resumed > 0 && notifications.listening);
      await onServer(second, (client) => client.query(`SELECT pg_notify('${CHANNEL}', 'after')`));
      await eventually(() => heard.includes('after'));
      expect(heard).toEqual(['before', 'after']);
    } finally {
      await notifications.close();
    }
  }, 30_000);
});
