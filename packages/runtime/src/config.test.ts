import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('readConfig', () => {
  it('reads the ledger log settings, never echoing a malformed key', () => {
    expect(readConfig({})).toMatchObject({
      LEDGER_LOG_ORIGIN: 'peeks-wallet.example/ledger',
      LEDGER_LOG_CHECKPOINT_SECONDS: 5,
    });
    const secretLooking = 'x'.repeat(43);
    expect(() => readConfig({ LEDGER_LOG_KEY: secretLooking })).toThrow(/^(?![\s\S]*x{43})[\s\S]*LEDGER_LOG_KEY/u);
    expect(() => readConfig({ LEDGER_WITNESS_URL: 'http://127.0.0.1:9/witness' })).toThrow(
      /LEDGER_WITNESS_SECRET: is required when LEDGER_WITNESS_URL is set/u,
    );
    expect(() => readConfig({ LEDGER_LOG_ORIGIN: 'a+b' })).toThrow(/LEDGER_LOG_ORIGIN/u);
  });

  it('gives defaults for an empty environment', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      HOLD_HOURS: 24,
      CARD_FUNDS_HOLD_HOURS: 168,
      WORKERS: 'on',
      DATA_DIR: '.data',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('parses given values and treats empty strings as unset', () => {
    const config = readConfig({
      PORT: '8080',
      HOLD_HOURS: '72',
      CARD_FUNDS_HOLD_HOURS: '48',
      DATABASE_URL: 'postgres://u:p@db:5432/peeks',
      LOG_LEVEL: '',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      HOLD_HOURS: 72,
      CARD_FUNDS_HOLD_HOURS: 48,
      DATABASE_URL: 'postgres://u:p@db:5432/peeks',
      LOG_LEVEL: 'info',
    });
  });

  it('reports one line per problem, naming each variable', () => {
    let error: unknown;
    try {
      readConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        HOLD_HOURS: '-1',
        CARD_FUNDS_HOLD_HOURS: 'a week',
        DATABASE_URL: 'mysql://root:hunter2@x/y',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems.find((line) => line.startsWith('PORT: '))).toContain('"eighty"');
    expect(problems.find((line) => line.startsWith('LOG_LEVEL: '))).toContain('"loud"');
    expect(problems.find((line) => line.startsWith('HOLD_HOURS: '))).toBeDefined();
    expect(problems.find((line) => line.startsWith('CARD_FUNDS_HOLD_HOURS: '))).toContain('"a week"');
    const urlProblem = problems.find((line) => line.startsWith('DATABASE_URL: '));
    expect(urlProblem).toContain('postgres://');
    expect(urlProblem).not.toContain('hunter2');
  });

  it('reads standbys for lists from DATABASE_READ_URL, skipped beyond a lag of 1 s unless told', () => {
    expect(readConfig({}).DATABASE_READ_URL).toBeUndefined();
    expect(readConfig({}).DATABASE_READ_MAX_LAG_MS).toBe(1_000);
    const url = 'postgres://reader:p@db2:5432,db3:5432/peeks?target_session_attrs=prefer-standby';
    expect(readConfig({ DATABASE_READ_URL: url, DATABASE_READ_MAX_LAG_MS: '250' })).toMatchObject({
      DATABASE_READ_URL: url,
      DATABASE_READ_MAX_LAG_MS: 250,
    });
    let error: unknown;
    try {
      readConfig({ DATABASE_READ_URL: 'postgres://reader:hunter2@db2/peeks?target_session_attrs=replica' });
    } catch (caught) {
      error = caught;
    }
    const [problem] = (error as ConfigError).problems;
    expect(problem).toMatch(/^DATABASE_READ_URL: target_session_attrs must be one of/);
    expect(problem).not.toContain('hunter2');
    expect(() => readConfig({ DATABASE_READ_MAX_LAG_MS: '-5' })).toThrow(/DATABASE_READ_MAX_LAG_MS/);
  });

  it('reads the card processor settings: this server unless a URL is given, 10 s to answer', () => {
    expect(readConfig({}).CARD_PROCESSOR_URL).toBeUndefined();
    expect(readConfig({}).CARD_PROCESSOR_TIMEOUT_MS).toBe(10_000);
    expect(
      readConfig({ CARD_PROCESSOR_URL: 'https://cards.example.com', CARD_PROCESSOR_TIMEOUT_MS: '2500' }),
    ).toMatchObject({ CARD_PROCESSOR_URL: 'https://cards.example.com', CARD_PROCESSOR_TIMEOUT_MS: 2500 });
    expect(() => readConfig({ CARD_PROCESSOR_URL: 'ftp://cards.example.com' })).toThrow(
      /CARD_PROCESSOR_URL: must be an http/,
    );
    expect(() => readConfig({ CARD_PROCESSOR_TIMEOUT_MS: '5' })).toThrow(
      /CARD_PROCESSOR_TIMEOUT_MS: must be at least 100/,
    );
  });

  it('reads WEBHOOK_ALLOW_PRIVATE as off unless it is 1', () => {
    expect(readConfig({}).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(readConfig({ WEBHOOK_ALLOW_PRIVATE: '0' }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(readConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(() => readConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE: must be 0 or 1/);
  });

  it('reads LEDGER_QUEUE_LIMIT as a whole number from 1, unset unless given', () => {
    expect(readConfig({}).LEDGER_QUEUE_LIMIT).toBeUndefined();
    expect(readConfig({ LEDGER_QUEUE_LIMIT: '250' }).LEDGER_QUEUE_LIMIT).toBe(250);
    expect(() => readConfig({ LEDGER_QUEUE_LIMIT: '0' })).toThrow(/LEDGER_QUEUE_LIMIT: must be at least 1/);
    expect(() => readConfig({ LEDGER_QUEUE_LIMIT: 'lots' })).toThrow(/LEDGER_QUEUE_LIMIT: must be a whole number/);
  });

  it('reads the correction cap and approval threshold in minor units, with defaults', () => {
    expect(readConfig({})).toMatchObject({ CORRECTION_MAX_MINOR: 100_000_000, CORRECTION_APPROVAL_MINOR: 1_000_000 });
    expect(readConfig({ CORRECTION_MAX_MINOR: '500000', CORRECTION_APPROVAL_MINOR: '0' })).toMatchObject({
      CORRECTION_MAX_MINOR: 500_000,
      CORRECTION_APPROVAL_MINOR: 0,
    });
    expect(() => readConfig({ CORRECTION_MAX_MINOR: '0' })).toThrow(/CORRECTION_MAX_MINOR/);
    expect(() => readConfig({ CORRECTION_APPROVAL_MINOR: '1.5' })).toThrow(/CORRECTION_APPROVAL_MINOR/);
  });

  it('refuses a port out of range', () => {
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT: must be at most 65535/);
  });

  it('reads the deposit settings, with sandbox defaults', () => {
    expect(readConfig({})).toMatchObject({
      INTERAC_RECIPIENT: 'interac@peeks-wallet.example',
      ZELLE_RECIPIENT: 'zelle@peeks-wallet.example',
      BITCOIN_NETWORK: 'testnet',
      BITCOIN_USD_RATE: 6_500_000,
    });
    expect(readConfig({}).BITCOIN_XPUB).toBeUndefined();
    expect(readConfig({ BITCOIN_USD_RATE: '70123.5' }).BITCOIN_USD_RATE).toBe(7_012_350);
    expect(readConfig({ BITCOIN_USD_RATE: '42' }).BITCOIN_USD_RATE).toBe(4200);
    expect(() => readConfig({ BITCOIN_USD_RATE: '1.234' })).toThrow(/BITCOIN_USD_RATE: must be an amount in dollars/);
    expect(() => readConfig({ BITCOIN_USD_RATE: '0' })).toThrow(/BITCOIN_USD_RATE: must be more than 0/);
    expect(() => readConfig({ INTERAC_RECIPIENT: 'nobody' })).toThrow(/INTERAC_RECIPIENT: must be an e-mail address/);
    expect(() => readConfig({ BITCOIN_NETWORK: 'regtest' })).toThrow(/BITCOIN_NETWORK/);
  });

  it('reads the Canadian dollar rate as millionths of a US dollar, 0.78 unless set', () => {
    expect(readConfig({}).CAD_USD_RATE).toBe(780_000);
    expect(readConfig({ CAD_USD_RATE: '0.7312' }).CAD_USD_RATE).toBe(731_200);
    expect(readConfig({ CAD_USD_RATE: '1' }).CAD_USD_RATE).toBe(1_000_000);
    expect(() => readConfig({ CAD_USD_RATE: '0.1234567' })).toThrow(/CAD_USD_RATE: must be a rate/);
    expect(() => readConfig({ CAD_USD_RATE: '0' })).toThrow(/CAD_USD_RATE: must be more than 0/);
  });

  it('reads the bitcoin watcher settings: idle without an Esplora URL, one confirmation, a poll every 30 s', () => {
    expect(readConfig({}).BITCOIN_ESPLORA_URL).toBeUndefined();
    expect(readConfig({})).toMatchObject({ BITCOIN_CONFIRMATIONS: 1, BITCOIN_POLL_SECONDS: 30 });
    expect(
      readConfig({
        BITCOIN_ESPLORA_URL: 'https://blockstream.info/testnet/api',
        BITCOIN_CONFIRMATIONS: '3',
        BITCOIN_POLL_SECONDS: '5',
      }),
    ).toMatchObject({
      BITCOIN_ESPLORA_URL: 'https://blockstream.info/testnet/api',
      BITCOIN_CONFIRMATIONS: 3,
      BITCOIN_POLL_SECONDS: 5,
    });
    expect(() => readConfig({ BITCOIN_ESPLORA_URL: 'tcp://esplora' })).toThrow(/BITCOIN_ESPLORA_URL: must be an http/);
    expect(() => readConfig({ BITCOIN_CONFIRMATIONS: '0' })).toThrow(/BITCOIN_CONFIRMATIONS: must be at least 1/);
    expect(() => readConfig({ BITCOIN_POLL_SECONDS: '0' })).toThrow(/BITCOIN_POLL_SECONDS: must be at least 1/);
  });

  it('takes an extended public key that fits the network, and never echoes a bad one', () => {
    const vpub = `vpub${'5'.repeat(107)}`;
    const zpub = `zpub${'6'.repeat(107)}`;
    expect(readConfig({ BITCOIN_XPUB: vpub }).BITCOIN_XPUB).toBe(vpub);
    expect(readConfig({ BITCOIN_XPUB: zpub, BITCOIN_NETWORK: 'mainnet' }).BITCOIN_XPUB).toBe(zpub);
    expect(() => readConfig({ BITCOIN_XPUB: zpub })).toThrow(/BITCOIN_XPUB: is not a testnet key/);
    expect(() => readConfig({ BITCOIN_XPUB: vpub, BITCOIN_NETWORK: 'mainnet' })).toThrow(
      /BITCOIN_XPUB: is not a mainnet key/,
    );
    expect(() => readConfig({ BITCOIN_NETWORK: 'mainnet' })).toThrow(
      /BITCOIN_XPUB: is required when BITCOIN_NETWORK is mainnet/,
    );
    const xprv = `xprv${'7'.repeat(107)}`;
    let error: unknown;
    try {
      readConfig({ BITCOIN_XPUB: xprv });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).problems).toEqual([
      'BITCOIN_XPUB: must be an extended public key (xpub, zpub, tpub or vpub), never a private one',
    ]);
  });
});
