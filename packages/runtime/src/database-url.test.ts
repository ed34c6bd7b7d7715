import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';
import { DatabaseUrlInvalid, parseDatabaseUrl } from './database-url.ts';

describe('parseDatabaseUrl', () => {
  it('reads a formation URL as its hosts in order and the session it needs', () => {
    const address = parseDatabaseUrl(
      'postgres://peeks:s3cret@127.0.0.1:6001,127.0.0.1:6002/peeks?target_session_attrs=read-write&sslmode=disable',
    );
    expect(address.hosts).toEqual([
      { host: '127.0.0.1', port: 6001 },
      { host: '127.0.0.1', port: 6002 },
    ]);
    expect(address.target).toBe('read-write');
    expect(address.hosts.map(address.urlFor)).toEqual([
      'postgres://peeks:s3cret@127.0.0.1:6001/peeks?sslmode=disable',
      'postgres://peeks:s3cret@127.0.0.1:6002/peeks?sslmode=disable',
    ]);
  });

  it('takes a single host as today: port 5432 unless given, any server', () => {
    const address = parseDatabaseUrl('postgresql://db/peeks');
    expect(address.hosts).toEqual([{ host: 'db', port: 5432 }]);
    expect(address.target).toBe('any');
    expect(address.urlFor(address.hosts[0]!)).toBe('postgresql://db:5432/peeks');
  });

  it('reads bracketed IPv6 hosts, mixed with named ones, and target_session_attrs=any', () => {
    const address = parseDatabaseUrl('postgres://u@[::1]:6001,localhost/x?target_session_attrs=any');
    expect(address.hosts).toEqual([
      { host: '[::1]', port: 6001 },
      { host: 'localhost', port: 5432 },
    ]);
    expect(address.target).toBe('any');
    expect(address.urlFor(address.hosts[0]!)).toBe('postgres://u@[::1]:6001/x');
  });

  it.each([
    ['mysql://root@x/y', /postgres:\/\//],
    ['postgres:///peeks', /at least one host/],
    ['postgres://u@h1:6001,/peeks', /not a host/],
    ['postgres://u@h1:70000/peeks', /port 70000/],
    ['postgres://u@h1:6001,h2:6002/peeks?target_session_attrs=writable', /target_session_attrs must be one of/],
  ])('refuses %s with clear words', (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(DatabaseUrlInvalid);
    expect(() => parseDatabaseUrl(url)).toThrow(message);
  });

  it('is what DATABASE_URL accepts, never echoing a password', () => {
    const url = 'postgres://postgres@127.0.0.1:6001,127.0.0.1:6002/peeks?target_session_attrs=read-write';
    expect(readConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(() => readConfig({ DATABASE_URL: 'postgres://u:hunter2@h1,h2/p?target_session_attrs=no' })).toThrow(
      /DATABASE_URL: target_session_attrs must be one of any, read-write/,
    );
    try {
      readConfig({ DATABASE_URL: 'postgres://u:hunter2@h1,h2/p?target_session_attrs=no' });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});
