import { z } from 'zod';

const onOff = z.enum(['on', 'off']);

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const postgresUrl = z
  .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
  .optional();

/**
 * Every setting the processes read from the environment. Each entry names
 * the variable, so an error can name it too.
 */
const environment = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.union([z.ipv4(), z.ipv6(), z.literal('localhost')], { error: 'must be an IP address or localhost' }).default('127.0.0.1'),
  PORT: integer(0, 65535).default(3000),
  DATABASE_URL: postgresUrl,
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOLD_HOURS: integer(0, 24 * 365).default(24),
  IDEMPOTENCY_KEY_HOURS: integer(1, 24 * 30).default(24),
  WORKERS: onOff.default('on'),
  DEMO_DATA: onOff.default('on'),
  // Webhook URLs on private, loopback or link-local hosts are refused unless this is 1 (local development).
  // How many proxies in front of the API to believe X-Forwarded-For from, so
  // that rate limits see the client's address and not the proxy's.
  TRUST_PROXY_HOPS: integer(0, 10).default(0),
  // The card processor's base URL (the sandbox processor's routes); unset means this server's own address.
  CARD_PROCESSOR_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  CARD_PROCESSOR_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['0', '1'], { error: 'must be 0 or 1' })
    .default('0')
    .transform((value) => value === '1'),
});

export type Config = z.infer<typeof environment>;

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

// A malformed DATABASE_URL may still carry a password: never echo it.
function isSecret(name: string): boolean {
  return name === 'DATABASE_URL';
}
