import { z } from 'zod';
import { DatabaseUrlInvalid, parseDatabaseUrl } from './database-url.ts';

const onOff = z.enum(['on', 'off']);

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

// One host, or several tried in order as libpq does (postgres://u@h1:p1,h2:p2/db?target_session_attrs=read-write).
const postgresUrl = z
  .string()
  .superRefine((value, context) => {
    try {
      parseDatabaseUrl(value);
    } catch (error) {
      if (!(error instanceof DatabaseUrlInvalid)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  })
  .optional();

/** Dollars with at most two decimals ("65000" or "65000.50"), read as whole cents. */
const dollarsAsCents = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount in dollars, such as 65000 or 65000.50')
  .transform((value) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  })
  .pipe(z.number().int().positive('must be more than 0'));

/** An exchange rate with at most six decimals ("0.78"), read as whole millionths (780000). */
const rateAsMicros = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a rate with at most six decimals, such as 0.78')
  .transform((value) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  })
  .pipe(z.number().int().positive('must be more than 0'));

/** Extended public keys by network: zpub/vpub name BIP84 keys, xpub/tpub the same keys in BIP32's generic encoding. */
const EXTENDED_PUBLIC_KEY = /^(xpub|zpub|tpub|vpub)[1-9A-HJ-NP-Za-km-z]{100,112}$/;
const mainnetKey = /^(xpub|zpub)/;

/**
 * Every setting the processes read from the environment. Each entry names
 * the variable, so an error can name it too.
 */
const environment = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z
      .union([z.ipv4(), z.ipv6(), z.literal('localhost')], { error: 'must be an IP address or localhost' })
      .default('127.0.0.1'),
    PORT: integer(0, 65535).default(3000),
    DATABASE_URL: postgresUrl,
    // Standbys for reads that tolerate a little lag (lists, details, reports); unset, every read goes to DATABASE_URL.
    // One or more hosts as libpq reads them, usually with target_session_attrs=standby or prefer-standby.
    DATABASE_READ_URL: postgresUrl,
    // A standby further behind the primary than this is skipped: its reads go to the primary until it catches up.
    DATABASE_READ_MAX_LAG_MS: integer(0, 600_000).default(1_000),
    // A process started while its database is away (a failover, a restart) waits this long for it before it exits.
    DATABASE_WAIT_SECONDS: integer(0, 86_400).default(300),
    DATA_DIR: z.string().min(1).default('.data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // The session cookie is __Host- and Secure (browsers take it on http://localhost); off only for plain HTTP elsewhere.
    COOKIE_SECURE: onOff.default('on'),
    HOLD_HOURS: integer(0, 24 * 365).default(24),
    // Coins bought by card (a purchase, a payment charged to a card) can be withdrawn as cash only this long after.
    CARD_FUNDS_HOLD_HOURS: integer(0, 24 * 365).default(168),
    // Ledger commands one process lets wait for its group commit; beyond it a payment gets 503 and Retry-After. Unset:
    // the ledger's own default (DEFAULT_QUEUE_LIMIT in packages/ledger-store).
    LEDGER_QUEUE_LIMIT: integer(1, 1_000_000).optional(),
    IDEMPOTENCY_KEY_HOURS: integer(1, 24 * 30).default(24),
    // Balance corrections in minor units: the most one may move (either way), and above what a second finance
    // operator must approve it before it is posted.
    CORRECTION_MAX_MINOR: integer(1, Number.MAX_SAFE_INTEGER).default(100_000_000),
    CORRECTION_APPROVAL_MINOR: integer(0, Number.MAX_SAFE_INTEGER).default(1_000_000),
    WORKERS: onOff.default('on'),
    // How often workers look for jobs whose worker died (no heartbeat for 10 s) and for schedules that are due.
    JOB_SUPERVISE_SECONDS: integer(1, 3600).default(30),
    DEMO_DATA: onOff.default('on'),
    // How many proxies in front of the API to believe X-Forwarded-For from, so
    // that rate limits see the client's address and not the proxy's.
    TRUST_PROXY_HOPS: integer(0, 10).default(0),
    // The card processor's base URL (the sandbox processor's routes); unset means this server's own address.
    CARD_PROCESSOR_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    CARD_PROCESSOR_TIMEOUT_MS: integer(100, 120_000).default(10_000),
    // The platform's credential for the processor's server-to-server calls; unset, each process makes one of its own
    // (enough when every API process calls its own sandbox processor).
    CARD_PROCESSOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    // Serve the sandbox card processor's routes (/api/sandbox/*): on by default, off by default in production.
    SANDBOX_PROCESSOR: onOff.optional(),
    // Webhook URLs on private, loopback or link-local hosts are refused unless this is 1 (local development).
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(['0', '1'], { error: 'must be 0 or 1' })
      .default('0')
      .transform((value) => value === '1'),
    // Webhook delivery: how long one POST may take, after how many days of nothing but failures a webhook is
    // disabled (and its owner e-mailed), and how many deliveries one worker process sends at once.
    WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(10_000),
    WEBHOOK_DISABLE_AFTER_DAYS: integer(1, 365).default(5),
    WEBHOOK_CONCURRENCY: integer(1, 1000).default(100),
    // The platform addresses e-mail-transfer deposits are sent to.
    INTERAC_RECIPIENT: z.email('must be an e-mail address').default('interac@peeks-wallet.example'),
    ZELLE_RECIPIENT: z.email('must be an e-mail address').default('zelle@peeks-wallet.example'),
    BITCOIN_NETWORK: z.enum(['mainnet', 'testnet']).default('testnet'),
    // The account-level key (m/84'/coin'/0') deposit addresses are derived from; unset on testnet, one is generated and stored.
    BITCOIN_XPUB: z
      .string()
      .regex(EXTENDED_PUBLIC_KEY, 'must be an extended public key (xpub, zpub, tpub or vpub), never a private one')
      .optional(),
    // US dollars per Canadian dollar: coins are priced in US dollars (20 a dollar), so a Canadian dollar buys 20 × this.
    // The development price list; production plugs a rate provider behind the same interface (features/pricing/rates.ts).
    CAD_USD_RATE: rateAsMicros.default(780_000),
    // The sandbox price of one bitcoin in US dollars, used for every bitcoin quote.
    BITCOIN_USD_RATE: dollarsAsCents.default(65_000_00),
    // An Esplora-style HTTP API (Blockstream's, mempool.space's or your own) the watcher polls for payments to deposit
    // addresses; unset, nothing watches them and unpaid deposits just expire.
    BITCOIN_ESPLORA_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    // Confirmations a payment needs before its deposit clears: 1 is the usual choice for small amounts (BTCPay Server's default).
    BITCOIN_CONFIRMATIONS: integer(1, 100).default(1),
    // How often the watcher asks about every open deposit's address.
    BITCOIN_POLL_SECONDS: integer(1, 3600).default(30),
    // The payout provider's base URL; unset, each worker runs the sandbox provider on loopback.
    PAYOUT_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    PAYOUT_TIMEOUT_MS: integer(100, 120_000).default(10_000),
    // A bank account number the sandbox provider refuses to pay (the declined test card 4000000000000002 is refused too).
    PAYOUT_SANDBOX_FAIL_ACCOUNT: z
      .string()
      .regex(/^[0-9A-Za-z-]{3,32}$/, 'must be 3 to 32 letters, digits or dashes')
      .default('000000002'),
    // When merchants' settled sales move to the settlement account: a cron expression in UTC, daily at 00:05 by default.
    SETTLEMENT_CRON: z
      .string()
      .regex(/^\S+( \S+){4,5}$/, 'must be a cron expression of 5 or 6 fields, such as "5 0 * * *"')
      .default('5 0 * * *'),
    // smtp:// or smtps:// server the outbox is sent through; unset, messages stay in the outbox.
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    EMAIL_FROM: z.string().min(3).default('Peeks Wallet <no-reply@peeks-wallet.example>'),
    // The ledger log (docs/architecture/ledger-log.md): its name, which is both the signing key's name and every
    // checkpoint's origin line; the Ed25519 seed that signs (unset: made once and kept in DATA_DIR/ledger-log.key);
    // how often a checkpoint is signed while the log grows; and where each checkpoint is sent to be witnessed.
    LEDGER_LOG_ORIGIN: z
      .string()
      .regex(/^[^\s+]{1,200}$/, "must be a name without spaces or '+', such as peeks-wallet.example/ledger")
      .default('peeks-wallet.example/ledger'),
    LEDGER_LOG_KEY: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a 32-byte Ed25519 seed in base64 (44 characters)')
      .optional(),
    LEDGER_LOG_CHECKPOINT_SECONDS: integer(1, 3600).default(5),
    LEDGER_WITNESS_DIR: z.string().min(1).optional(),
    LEDGER_WITNESS_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    // Signs each POST to LEDGER_WITNESS_URL as webhooks are signed (Standard Webhooks, whsec_ and base64).
    LEDGER_WITNESS_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ and at least 24 bytes in base64')
      .optional(),
  })
  .superRefine((config, context) => {
    if (config.LEDGER_WITNESS_URL !== undefined && config.LEDGER_WITNESS_SECRET === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['LEDGER_WITNESS_SECRET'],
        message: 'is required when LEDGER_WITNESS_URL is set (it signs each checkpoint sent)',
      });
    }
    if (config.BITCOIN_NETWORK === 'mainnet' && config.BITCOIN_XPUB === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['BITCOIN_XPUB'],
        message: 'is required when BITCOIN_NETWORK is mainnet (a key is generated only for testnet)',
      });
    }
    if (
      config.BITCOIN_XPUB !== undefined &&
      mainnetKey.test(config.BITCOIN_XPUB) !== (config.BITCOIN_NETWORK === 'mainnet')
    ) {
      context.addIssue({
        code: 'custom',
        path: ['BITCOIN_XPUB'],
        message: `is not a ${config.BITCOIN_NETWORK} key (mainnet: xpub or zpub; testnet: tpub or vpub)`,
      });
    }
  });

export type Config = z.infer<typeof environment>;

/** The sandbox card processor's routes are served unless SANDBOX_PROCESSOR says otherwise, or NODE_ENV is production. */
export const serveSandboxProcessor = (config: Config): boolean =>
  (config.SANDBOX_PROCESSOR ?? (config.NODE_ENV === 'production' ? 'off' : 'on')) === 'on';

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Configuration is invalid:\n${problems.join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads and validates the environment once; an empty value counts as unset. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = environment.safeParse(present);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const given = present[name];
      return `${name}: ${issue.message}${given === undefined || isSecret(name) ? '' : ` (got "${given}")`}`;
    }),
  );
}

// A malformed DATABASE_URL, DATABASE_READ_URL or SMTP_URL may still carry a password, and a malformed BITCOIN_XPUB may be a private key: never echo them.
function isSecret(name: string): boolean {
  return (
    name === 'DATABASE_URL' ||
    name === 'DATABASE_READ_URL' ||
    name === 'BITCOIN_XPUB' ||
    name === 'SMTP_URL' ||
    name === 'CARD_PROCESSOR_SECRET' ||
    name === 'LEDGER_LOG_KEY' ||
    name === 'LEDGER_WITNESS_SECRET'
  );
}
