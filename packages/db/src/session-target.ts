import { parseDatabaseUrl, type DatabaseAddress, type DatabaseHost, type SessionTarget } from '@peeks/runtime';
import pg from 'pg';

/** How long one host may take to accept a probe before the next one is tried. */
const PROBE_TIMEOUT_MS = 3_000;

/** No host of a multi-host URL was what the session needs (all down, or none writable). */
export class NoSuitableHost extends Error {
  readonly code = '08001';
  constructor(target: SessionTarget, tried: string[]) {
    super(`no database host is ${target} (tried ${tried.join(', ')})`);
    this.name = 'NoSuitableHost';
  }
}

interface ServerState {
  readOnly: boolean;
  inRecovery: boolean;
}

const readServerState = async (client: pg.Client): Promise<ServerState> => {
  const { rows } = await client.query<{ read_only: string; in_recovery: boolean }>(
    "SELECT current_setting('transaction_read_only') AS read_only, pg_is_in_recovery() AS in_recovery",
  );
  return { readOnly: rows[0]?.read_only === 'on', inRecovery: rows[0]?.in_recovery === true };
};

/** Whether a server in `state` is one a session with `target` may use (libpq's rules). */
export function serverFits(target: SessionTarget, state: ServerState): boolean {
  switch (target) {
    case 'any':
    case 'prefer-standby':
      return true;
    case 'read-write':
      return !state.readOnly;
    case 'read-only':
      return state.readOnly;
    case 'primary':
      return !state.inRecovery;
    case 'standby':
      return state.inRecovery;
  }
}

const nameOf = (host: DatabaseHost) => `${host.host}:${host.port}`;

/**
 * Which host of a multi-host URL new connections go to. The host found last
 * is kept while its connections work; a connection that fails, or lands on a
 * server that no longer fits (a demoted primary), makes the next one search
 * the hosts again in order, so a promoted standby is found.
 */
export class SessionHosts {
  readonly address: DatabaseAddress;
  readonly #config: pg.ClientConfig;
  #chosen: DatabaseHost | null = null;
  #search: Promise<DatabaseHost> | null = null;

  constructor(url: string, config: Omit<pg.ClientConfig, 'connectionString'> = {}) {
    this.address = parseDatabaseUrl(url);
    this.#config = config;
  }

  /** The host to connect to: the one chosen before, or the first that fits now. */
  choose(): Promise<DatabaseHost> {
    if (this.#chosen) return Promise.resolve(this.#chosen);
    this.#search ??= this.#searchHosts().finally(() => {
      this.#search = null;
    });
    return this.#search;
  }

  /** A connection to `host` failed or did not fit: search again next time. */
  forget(host: DatabaseHost): void {
    if (this.#chosen === host) this.#chosen = null;
  }

  /** Whether the server behind a fresh connection fits; skipped when any server will do. */
  async fits(client: pg.Client): Promise<boolean> {
    if (this.address.target === 'any') return true;
    return serverFits(this.address.target, await readServerState(client));
  }

  configFor(host: DatabaseHost): pg.ClientConfig {
    return { ...this.#config, connectionString: this.address.urlFor(host) };
  }

  async #searchHosts(): Promise<DatabaseHost> {
    const { hosts, target } = this.address;
    // prefer-standby: a standby if there is one, else any host that answers.
    const passes: SessionTarget[] = target === 'prefer-standby' ? ['standby', 'any'] : [target];
    for (const pass of passes) {
      for (const host of hosts) {
        if (await this.#probe(host, pass)) {
          this.#chosen = host;
          return host;
        }
      }
    }
    throw new NoSuitableHost(target, hosts.map(nameOf));
  }

  async #probe(host: DatabaseHost, target: SessionTarget): Promise<boolean> {
    const client = new pg.Client({
      ...this.configFor(host),
      application_name: 'peeks-host-probe',
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return target === 'any' || serverFits(target, await readServerState(client));
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

type ConnectCallback = ((error: Error) => void) | ((error: null, client: pg.Client) => void);

/**
 * A node-postgres client for a multi-host URL: node-postgres takes one host,
 * so the host is chosen before connecting and the server checked after.
 * Pools take it as their `Client`; it is also a plain client (LISTEN).
 */
export function clientFor(hosts: SessionHosts): typeof pg.Client {
  class SessionClient extends pg.Client {
    #host: DatabaseHost | null = null;

    constructor(config?: pg.ClientConfig) {
      // The pool hands over its own settings (types, application_name): keep them, with the chosen host's URL later.
      const [first] = hosts.address.hosts;
      super({ ...config, ...(first ? { connectionString: hosts.address.urlFor(first) } : {}) });
      this.on('error', () => {
        if (this.#host) hosts.forget(this.#host);
      });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const opened = this.#open().then(() => this);
      if (!callback) return opened;
      // pg-pool connects with a callback.
      opened.then(
        (client) => {
          (callback as (error: null, client: pg.Client) => void)(null, client);
        },
        (error: unknown) => {
          (callback as (error: Error) => void)(error as Error);
        },
      );
    }

    async #open(): Promise<void> {
      const host = await hosts.choose();
      this.#host = host;
      // node-postgres reads host and port from these at connect time; the rest of the URL is the same for every host.
      this.host = host.host.replace(/^\[(.*)\]$/, '$1');
      this.port = host.port;
      Object.assign((this as unknown as { connectionParameters: object }).connectionParameters, {
        host: this.host,
        port: host.port,
      });
      try {
        await super.connect();
      } catch (error) {
        hosts.forget(host);
        throw error;
      }
      if (!(await hosts.fits(this))) {
        hosts.forget(host);
        await this.end().catch(() => undefined);
        throw new NoSuitableHost(hosts.address.target, [nameOf(host)]);
      }
    }
  }
  return SessionClient;
}

/** Whether `url` needs choosing among hosts: more than one, or a session that must be writable (or not). */
export function needsHostChoice(url: string): boolean {
  const address = parseDatabaseUrl(url);
  return address.hosts.length > 1 || address.target !== 'any';
}

/**
 * What a pg pool (ours, pg-boss's) takes to connect to `url`: the URL, and
 * for a multi-host one the client that chooses the host.
 */
export function poolConnection(url: string): { connectionString: string; Client?: typeof pg.Client } {
  return needsHostChoice(url)
    ? { connectionString: url, Client: clientFor(new SessionHosts(url)) }
    : { connectionString: url };
}

/** A plain pg.Client for `url` (one connection, such as a LISTEN), on a writable host when the URL says so. */
export function newDatabaseClient(url: string, config: Omit<pg.ClientConfig, 'connectionString'> = {}): pg.Client {
  if (!needsHostChoice(url)) return new pg.Client({ ...config, connectionString: url });
  const Client = clientFor(new SessionHosts(url, config));
  return new Client(config);
}
