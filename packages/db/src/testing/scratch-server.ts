import { execFileSync, spawnSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A throwaway PostgreSQL of Debian's on a loopback port: a second server for the multi-host tests. */
export interface ScratchServer {
  url: string;
  port: number;
  /** Reloads the server with default_transaction_read_only on or off: what a demoted or promoted node looks like. */
  setReadOnly: (readOnly: boolean) => void;
  stop: () => Promise<void>;
}

function run(args: string[], asPostgres: boolean): void {
  const [command = '', ...rest] = args;
  const result = asPostgres
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...rest], { encoding: 'utf8' })
    : spawnSync(command, rest, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} failed: ${result.stderr || result.stdout}`);
}

const isRoot = () => process.getuid?.() === 0;

/** A fresh directory the server's user owns, and a free loopback port. */
async function place(): Promise<{ dir: string; pgdata: string; port: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'peeks-scratch-'));
  if (isRoot()) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    await chown(dir, id('-u'), id('-g'));
  }
  return { dir, pgdata: path.join(dir, 'data'), port: await getPort({ host: '127.0.0.1' }) };
}

function startServer(dir: string, pgdata: string, port: number): (...args: string[]) => void {
  const settings = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${dir}'`,
    '-c shared_buffers=16MB',
    '-c fsync=off',
  ].join(' ');
  run(
    [path.join(PG_BIN, 'pg_ctl'), '-D', pgdata, '-o', settings, '-w', '-l', path.join(dir, 'log'), 'start'],
    isRoot(),
  );
  return (...args: string[]) => {
    run([path.join(PG_BIN, 'pg_ctl'), '-D', pgdata, ...args], isRoot());
  };
}

export async function startScratchServer(options: { readOnly?: boolean } = {}): Promise<ScratchServer> {
  const { dir, pgdata, port } = await place();
  run(
    [path.join(PG_BIN, 'initdb'), '-D', pgdata, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'],
    isRoot(),
  );
  const ctl = startServer(dir, pgdata, port);
  const setReadOnly = (readOnly: boolean) => {
    run(
      [
        path.join(PG_BIN, 'psql'),
        '-qAt',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-c',
        `ALTER SYSTEM SET default_transaction_read_only = ${readOnly ? 'on' : 'off'}`,
        '-c',
        'SELECT pg_reload_conf()',
      ],
      false,
    );
  };
  if (options.readOnly) setReadOnly(true);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    setReadOnly,
    stop: async () => {
      ctl('-m', 'immediate', 'stop');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A hot standby streaming from a scratch server (PostgreSQL's own replication), on a port of its own. */
export interface ScratchStandby {
  url: string;
  port: number;
  stop: () => Promise<void>;
}

/**
 * A streaming standby of `primary`: a base backup taken with its WAL, then
 * started in recovery. initdb's trust rules already let loopback connect for
 * replication. Pause its replay with pg_wal_replay_pause() to make it lag.
 */
export async function startScratchStandby(primary: ScratchServer): Promise<ScratchStandby> {
  const { dir, pgdata, port } = await place();
  run(
    [
      path.join(PG_BIN, 'pg_basebackup'),
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      pgdata,
      '--write-recovery-conf',
      '--wal-method=stream',
      '--checkpoint=fast',
      '--no-sync',
    ],
    isRoot(),
  );
  const ctl = startServer(dir, pgdata, port);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      ctl('-m', 'immediate', 'stop');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
