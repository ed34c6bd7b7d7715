import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A local pg_auto_failover formation: a monitor, a primary and a synchronous
 * secondary, each a PostgreSQL 15 of Debian's on a loopback port, with their
 * keepers (`pg_autoctl run`) running as the `postgres` user. For development
 * (`npm run db:cluster`), the failover tests and `npm run chaos -- --cluster`.
 */
export interface FormationOptions {
  /** Where the data directories and the keepers' configuration live. */
  dir: string;
  /** The monitor's port; the nodes take the next ones. */
  basePort?: number;
  nodes?: number;
  /** The application database pg_auto_failover creates on the primary. */
  database?: string;
  log?: (line: string) => void;
}

export interface Formation {
  /** The multi-host URL of the formation's nodes, target_session_attrs=read-write. */
  url: string;
  nodes: FormationNode[];
  monitorPort: number;
}

export interface FormationNode {
  name: string;
  port: number;
  pgdata: string;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PACKAGES = ['postgresql-15-auto-failover', 'pgbouncer'];
/** A formation starts in about 30 s here; this is the bound on each wait. */
const WAIT_MS = 120_000;

const settings = (options: FormationOptions) => ({
  dir: path.resolve(options.dir),
  basePort: options.basePort ?? 6000,
  nodes: options.nodes ?? 2,
  database: options.database ?? 'peeks',
  log: options.log ?? (() => undefined),
});

/** Installs pg_auto_failover and PgBouncer from Debian's packages when they are missing (as CI installs Chromium). */
export function installFormationPackages(log: (line: string) => void = () => undefined): void {
  if (existsSync('/usr/bin/pg_autoctl') && existsSync('/usr/sbin/pgbouncer')) return;
  const root = process.getuid?.() === 0;
  const command = root ? 'apt-get' : 'sudo';
  const args = (rest: string[]) => (root ? rest : ['apt-get', ...rest]);
  log(`installing ${PACKAGES.join(' and ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = spawnSync(command, args(['install', '-y', '-q', ...PACKAGES]), { stdio: 'inherit', env });
  if (install.status === 0) return;
  spawnSync(command, args(['update', '-q']), { stdio: 'inherit', env });
  const again = spawnSync(command, args(['install', '-y', '-q', ...PACKAGES]), { stdio: 'inherit', env });
  if (again.status !== 0) throw new Error(`could not install ${PACKAGES.join(' and ')}`);
}

/** The keepers run as `postgres` (PostgreSQL refuses root), with their configuration under `dir`. */
function asPostgres(dir: string): { command: string; prefix: string[]; env: NodeJS.ProcessEnv } {
  const env = {
    ...process.env,
    // Only system directories: pg_autoctl looks for pg_ctl on PATH and stops at any it may not read.
    PATH: `${PG_BIN}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'share'),
  };
  if (process.getuid?.() !== 0) return { command: 'pg_autoctl', prefix: [], env };
  return {
    command: 'runuser',
    prefix: ['-u', 'postgres', '-w', 'PATH,XDG_CONFIG_HOME,XDG_DATA_HOME', '--', 'pg_autoctl'],
    env,
  };
}

function autoctl(dir: string, args: string[]): string {
  const { command, prefix, env } = asPostgres(dir);
  // Bounded: a keeper command that hangs must not hang its caller.
  const result = spawnSync(command, [...prefix, ...args], { env, encoding: 'utf8', cwd: dir, timeout: 180_000 });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} failed: ${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout.trim();
}

/**
 * pg_auto_failover's defaults notice a lost primary only after 20 s without
 * an answer (node_considered_unhealthy_timeout), checked every 5 s: about
 * 50 s without writes here. On loopback, where an answer takes
 * microseconds, a node is given up after 5 s of silence, checked every 1 s.
 */
const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 5000,
};

function tuneMonitor(port: number): void {
  const statements = Object.entries(MONITOR_SETTINGS).map(([name, value]) => `ALTER SYSTEM SET ${name} = ${value}`);
  const psql = path.join(PG_BIN, 'psql');
  const args = ['-qAt', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'pg_auto_failover'];
  for (const statement of [...statements, 'SELECT pg_reload_conf()']) {
    const result = spawnSync(psql, [...args, '-c', statement], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tuning the monitor failed: ${result.stderr}`);
  }
}

/** Starts `pg_autoctl run` for one data directory in the background; its output goes to `<pgdata>.log`. */
async function runKeeper(dir: string, pgdata: string): Promise<void> {
  if (keeperRunning(pgdata)) return;
  const { command, prefix, env } = asPostgres(dir);
  const out = openSync(`${pgdata}.log`, 'a');
  const child = spawn(command, [...prefix, 'run', '--pgdata', pgdata], {
    env,
    cwd: dir,
    detached: true,
    stdio: ['ignore', out, out],
  });
  child.unref();
  closeSync(out);
  // Its own process group: the loss of a node kills the keeper and everything it started at once.
  await writeFile(`${pgdata}.keeper`, String(child.pid));
}

function keeperRunning(pgdata: string): boolean {
  try {
    process.kill(-Number(readFileSync(`${pgdata}.keeper`, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

const monitorData = (dir: string) => path.join(dir, 'monitor');
const nodeData = (dir: string, index: number) => path.join(dir, `node${index + 1}`);

function nodesOf(options: ReturnType<typeof settings>): FormationNode[] {
  return Array.from({ length: options.nodes }, (_, index) => ({
    name: `node${index + 1}`,
    port: options.basePort + 1 + index,
    pgdata: nodeData(options.dir, index),
  }));
}

const accepts = (port: number) =>
  spawnSync(path.join(PG_BIN, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]).status === 0;

async function waitFor(
  what: string,
  check: () => boolean,
  describe: () => string = () => '',
  waitMs = WAIT_MS,
): Promise<void> {
  const until = Date.now() + waitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what}: not within ${waitMs / 1000} s${describe()}`);
    await sleep(500);
  }
}

/** The monitor's view of each node, for an error: what state a node was stuck in, and its keeper's last words. */
function stateNow(dir: string): string {
  try {
    const state = formationState(dir);
    const nodes = state.map((node) => `${node.name} ${node.state} (goal ${node.goal})`);
    const logs = state
      .filter((node) => node.state !== node.goal)
      .map((node) => `\n${node.name}'s keeper log ends:\n${logTail(path.join(dir, `${node.name}.log`), 20)}`);
    return `; nodes: ${nodes.join(', ')}${logs.join('')}`;
  } catch (error) {
    return `; the monitor did not answer: ${(error as Error).message}`;
  }
}

function logTail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The formation's nodes and their states, as the monitor sees them. */
export function formationState(dir: string): { name: string; port: number; state: string; goal: string }[] {
  const json = autoctl(path.resolve(dir), ['show', 'state', '--pgdata', monitorData(path.resolve(dir)), '--json']);
  const rows = JSON.parse(json) as {
    nodename: string;
    nodeport: number;
    current_group_state: string;
    assigned_group_state: string;
  }[];
  return rows.map((row) => ({
    name: row.nodename,
    port: row.nodeport,
    state: row.current_group_state,
    goal: row.assigned_group_state,
  }));
}

/** Settled: one primary, every other node a secondary, each at its goal. */
function settled(dir: string, nodes: number): boolean {
  try {
    const state = formationState(dir);
    return (
      state.length === nodes &&
      state.every((node) => node.state === node.goal) &&
      state.filter((node) => node.state === 'primary').length === 1 &&
      state.filter((node) => node.state === 'secondary').length === nodes - 1
    );
  } catch {
    return false;
  }
}

export function formationUrl(dir: string): string {
  const uri = autoctl(path.resolve(dir), [
    'show',
    'uri',
    '--pgdata',
    monitorData(path.resolve(dir)),
    '--formation',
    'default',
  ]);
  // pg_autoctl adds sslmode=prefer (the formation runs without SSL on loopback) and names no user (its trust rules are for postgres).
  return uri
    .replace(/[?&]sslmode=[a-z-]+/, '')
    .replace(/\/([^/?]+)&/, '/$1?')
    .replace(/^postgres:\/\/(?![^/]*@)/, 'postgres://postgres@');
}

/** Loopback only: pg_autoctl would have PostgreSQL listen on every address. */
const COMMON = [
  '--hostname',
  '127.0.0.1',
  '--listen',
  '127.0.0.1',
  '--auth',
  'trust',
  '--no-ssl',
  '--pgctl',
  path.join(PG_BIN, 'pg_ctl'),
];

const monitorUri = (options: ReturnType<typeof settings>) =>
  `postgres://autoctl_node@127.0.0.1:${options.basePort}/pg_auto_failover?sslmode=disable`;

/** Registers a node with the monitor; the first is the primary, the next a base backup of it. */
function createNode(options: ReturnType<typeof settings>, node: FormationNode): void {
  autoctl(options.dir, [
    'create',
    'postgres',
    '--pgdata',
    node.pgdata,
    '--pgport',
    String(node.port),
    '--name',
    node.name,
    '--dbname',
    options.database,
    '--monitor',
    monitorUri(options),
    ...COMMON,
  ]);
}

/** Creates the formation under `dir` if it is not there yet, starts its keepers and waits for primary and secondary. */
export async function startFormation(input: FormationOptions): Promise<Formation> {
  const options = settings(input);
  const { dir, basePort, log } = options;
  installFormationPackages(log);
  await mkdir(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(dir, uid, gid);
  }
  const monitor = monitorData(dir);
  if (!existsSync(monitor)) {
    log(`creating the monitor on 127.0.0.1:${basePort}`);
    autoctl(dir, ['create', 'monitor', '--pgdata', monitor, '--pgport', String(basePort), ...COMMON]);
  }
  await runKeeper(dir, monitor);
  await waitFor('the monitor', () => accepts(basePort));
  tuneMonitor(basePort);
  const nodes = nodesOf(options);
  for (const node of nodes) {
    if (!existsSync(node.pgdata)) {
      log(`creating ${node.name} on 127.0.0.1:${node.port}`);
      createNode(options, node);
    }
    await runKeeper(dir, node.pgdata);
    // One node at a time: the second clones the first once it is primary.
    await waitFor(`${node.name} to join`, () => {
      try {
        return formationState(dir).some((state) => state.name === node.name && state.state === state.goal);
      } catch {
        return false;
      }
    });
  }
  await waitFor('a primary and a synchronous secondary', () => settled(dir, nodes.length));
  return { url: formationUrl(dir), nodes, monitorPort: basePort };
}

/** Stops every keeper (each stops its PostgreSQL), the nodes first and the monitor last. */
export async function stopFormation(input: FormationOptions): Promise<void> {
  const options = settings(input);
  const { dir } = options;
  for (const pgdata of [...nodesOf(options).map((node) => node.pgdata), monitorData(dir)]) {
    if (!existsSync(pgdata)) continue;
    try {
      autoctl(dir, ['stop', '--pgdata', pgdata]);
    } catch {
      // Not running.
    }
  }
  await waitFor('the formation to stop', () =>
    [...nodesOf(options).map((node) => node.pgdata), monitorData(dir)].every(
      (pgdata) => !existsSync(path.join(pgdata, 'postmaster.pid')),
    ),
  );
}

/** Stops the formation and removes its data. */
export async function destroyFormation(input: FormationOptions): Promise<void> {
  await stopFormation(input);
  await rm(settings(input).dir, { recursive: true, force: true });
}

/** Starts a node's keeper again after its loss: it rejoins as a secondary (pg_rewind if it must). */
export async function restartNode(input: FormationOptions, node: FormationNode): Promise<void> {
  await runKeeper(settings(input).dir, node.pgdata);
}

/** Waits for one primary and every other node a secondary again (for `waitMs`, 120 s unless told). */
export async function waitForSettled(input: FormationOptions, waitMs = WAIT_MS): Promise<void> {
  const options = settings(input);
  await waitFor(
    'the formation to settle',
    () => settled(options.dir, options.nodes),
    () => stateNow(options.dir),
    waitMs,
  );
}

/**
 * What an operator does with a node that does not rejoin: stops its keeper,
 * drops it from the monitor and deletes its data (`pg_autoctl drop node
 * --destroy --force`), and creates it afresh, a base backup of the primary.
 * The primary goes on alone meanwhile.
 */
export async function recreateNode(input: FormationOptions, node: FormationNode): Promise<void> {
  const options = settings(input);
  await stopKeeper(node.pgdata);
  try {
    autoctl(options.dir, ['drop', 'node', '--pgdata', node.pgdata, '--destroy', '--force']);
  } catch {
    // Its state files may be what is broken: drop it by name from the monitor instead.
    if (formationState(options.dir).some((state) => state.name === node.name))
      autoctl(options.dir, [
        'drop',
        'node',
        '--monitor',
        monitorUri(options),
        '--formation',
        'default',
        '--name',
        node.name,
        '--force',
      ]);
  }
  // Whatever the drop left: the data directory and the keeper's configuration and state for it.
  for (const leftover of [
    node.pgdata,
    path.join(options.dir, 'config', 'pg_autoctl', node.pgdata),
    path.join(options.dir, 'share', 'pg_autoctl', node.pgdata),
  ])
    await rm(leftover, { recursive: true, force: true });
  await waitFor('the node to leave the monitor', () => {
    try {
      return !formationState(options.dir).some((state) => state.name === node.name);
    } catch {
      return false;
    }
  });
  createNode(options, node);
  await runKeeper(options.dir, node.pgdata);
}

/** Stops a node's keeper and its PostgreSQL: SIGTERM to its process group, SIGKILL after 10 s. */
async function stopKeeper(pgdata: string): Promise<void> {
  const keeper = Number(readFileSync(`${pgdata}.keeper`, 'utf8'));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-keeper, name);
    } catch {
      // Gone already.
    }
  };
  signal('SIGTERM');
  const until = Date.now() + 10_000;
  while (keeperRunning(pgdata) && Date.now() < until) await sleep(250);
  signal('SIGKILL');
  try {
    process.kill(Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');
  } catch {
    // No postmaster left.
  }
}

/** Asks the monitor for a planned switchover and waits until the formation has settled on the other node. */
export async function switchover(input: FormationOptions): Promise<void> {
  const options = settings(input);
  const before = formationState(options.dir).find((node) => node.state === 'primary')?.name;
  autoctl(options.dir, ['perform', 'switchover', '--pgdata', monitorData(options.dir), '--wait', '60']);
  await waitFor('the switchover to settle', () => {
    if (!settled(options.dir, options.nodes)) return false;
    return formationState(options.dir).find((node) => node.state === 'primary')?.name !== before;
  });
}

/**
 * The loss of a node whole: its keeper's process group and its postmaster
 * SIGKILLed at once, so nothing shuts down cleanly and the monitor must
 * notice by itself.
 */
export async function killNode(node: FormationNode): Promise<void> {
  const keeper = Number(await readFile(`${node.pgdata}.keeper`, 'utf8'));
  const postmaster = Number((await readFile(path.join(node.pgdata, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  for (const kill of [() => process.kill(-keeper, 'SIGKILL'), () => process.kill(postmaster, 'SIGKILL')]) {
    try {
      kill();
    } catch {
      // Gone already.
    }
  }
}

/**
 * The node the monitor has as primary now: one that reports primary (or
 * wait_primary, alone) and is still assigned it. A lost primary's last report
 * stays "primary" until its keeper comes back; only its goal says it is being
 * demoted, so the report alone would name the lost node after a failover.
 */
export function primaryNode(formation: Formation, dir: string): FormationNode | undefined {
  const name = formationState(dir).find(
    (node) => (node.state === 'primary' || node.state === 'wait_primary') && node.state === node.goal,
  )?.name;
  return formation.nodes.find((node) => node.name === name);
}

/** PgBouncer's port in front of each node: the node's port plus 10 (6011 for 6001). */
const bouncerPort = (node: FormationNode) => node.port + 10;
const bouncerDir = (dir: string, node: FormationNode) => path.join(dir, `pgbouncer-${node.name}`);

/**
 * One PgBouncer in session mode in front of each node, as it runs on each
 * database machine: the app's multi-host URL names the bouncers, and its
 * read-write check reaches the server behind each one. Session mode because
 * the app keeps session state (LISTEN, advisory locks, prepared statements).
 */
export async function startBouncers(input: FormationOptions & { poolSize?: number }): Promise<string> {
  const options = settings(input);
  const nodes = nodesOf(options);
  for (const node of nodes) {
    const home = bouncerDir(options.dir, node);
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'users.txt'), '"postgres" ""\n');
    await writeFile(
      path.join(home, 'pgbouncer.ini'),
      [
        '[databases]',
        `${options.database} = host=127.0.0.1 port=${node.port} dbname=${options.database}`,
        // Any other database by its own name (the benchmarks' scratch databases).
        `* = host=127.0.0.1 port=${node.port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort(node)}`,
        `unix_socket_dir = ${home}`,
        'auth_type = trust',
        `auth_file = ${path.join(home, 'users.txt')}`,
        'pool_mode = session',
        `default_pool_size = ${input.poolSize ?? 40}`,
        'max_client_conn = 400',
        'server_reset_query = DISCARD ALL',
        'ignore_startup_parameters = extra_float_digits,options',
        `logfile = ${path.join(home, 'pgbouncer.log')}`,
        `pidfile = ${path.join(home, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      for (const file of ['', 'users.txt', 'pgbouncer.ini']) await chown(path.join(home, file), uid, gid);
    }
    if (existsSync(path.join(home, 'pgbouncer.pid'))) continue;
    const args = ['-d', path.join(home, 'pgbouncer.ini')];
    const result =
      process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'postgres', '--', '/usr/sbin/pgbouncer', ...args], { encoding: 'utf8' })
        : spawnSync('/usr/sbin/pgbouncer', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pgbouncer failed: ${result.stderr || result.stdout}`);
  }
  const hosts = nodes.map((node) => `127.0.0.1:${bouncerPort(node)}`).join(',');
  return `postgres://postgres@${hosts}/${options.database}?target_session_attrs=read-write`;
}

export async function stopBouncers(input: FormationOptions): Promise<void> {
  const options = settings(input);
  for (const node of nodesOf(options)) {
    const pidFile = path.join(bouncerDir(options.dir, node), 'pgbouncer.pid');
    if (!existsSync(pidFile)) continue;
    try {
      process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGTERM');
    } catch {
      // Not running.
    }
    await waitFor('pgbouncer to stop', () => !existsSync(pidFile));
  }
}
