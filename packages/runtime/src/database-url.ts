/**
 * What libpq's `target_session_attrs` asks of the server a session lands on.
 * `read-write` and `primary` are what a writer needs; the others are for
 * readers of standbys.
 */
export const SESSION_TARGETS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type SessionTarget = (typeof SESSION_TARGETS)[number];

export interface DatabaseHost {
  host: string;
  port: number;
}

/** A `postgres://` URL read as libpq reads it: one or more hosts, tried in order, and what the session needs. */
export interface DatabaseAddress {
  hosts: DatabaseHost[];
  target: SessionTarget;
  /** The same URL naming one host, and without target_session_attrs: what node-postgres understands. */
  urlFor: (host: DatabaseHost) => string;
}

export class DatabaseUrlInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUrlInvalid';
  }
}

const DEFAULT_PORT = 5432;
const URL_PARTS = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^[\]:]+)(?::(\d{1,5}))?$/;

function readHost(text: string): DatabaseHost {
  const parts = HOST_PORT.exec(text);
  if (!parts) throw new DatabaseUrlInvalid(`"${text}" is not a host or host:port`);
  const [, host = '', port] = parts;
  const number = port === undefined ? DEFAULT_PORT : Number(port);
  if (number < 1 || number > 65_535) throw new DatabaseUrlInvalid(`port ${port} is not from 1 to 65535`);
  return { host, port: number };
}

/**
 * Reads `postgres://user:password@h1:p1,h2:p2/db?target_session_attrs=read-write`,
 * the form pg_auto_failover prints for a formation and libpq-based clients
 * take for any primary and standby. A single-host URL is the same with one
 * host. Never echoes the URL in its errors: it may carry a password.
 */
export function parseDatabaseUrl(url: string): DatabaseAddress {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new DatabaseUrlInvalid('must be a postgres:// or postgresql:// URL');
  const [, scheme = 'postgres', userInfo, hostList = '', path = '', query = ''] = parts;
  if (hostList === '') throw new DatabaseUrlInvalid('must name at least one host');
  const hosts = hostList.split(',').map(readHost);
  const params = new URLSearchParams(query);
  const target = params.get('target_session_attrs') ?? 'any';
  if (!(SESSION_TARGETS as readonly string[]).includes(target)) {
    throw new DatabaseUrlInvalid(`target_session_attrs must be one of ${SESSION_TARGETS.join(', ')}`);
  }
  params.delete('target_session_attrs');
  const rest = params.size === 0 ? '' : `?${params.toString()}`;
  const urlFor = (host: DatabaseHost) =>
    `${scheme}://${userInfo === undefined ? '' : `${userInfo}@`}${host.host}:${host.port}${path}${rest}`;
  for (const host of hosts) {
    if (!URL.canParse(urlFor(host))) throw new DatabaseUrlInvalid('must be a postgres:// or postgresql:// URL');
  }
  return { hosts, target: target as SessionTarget, urlFor };
}
