import { sandboxCardCharges } from '@peeks/card-processor';
import { poolConnection, startProjectionRunner, type Database } from '@peeks/db';
import { ledgerLog, platformBalances, SEQUENCER_POLL_MS } from '@peeks/ledger-store';
import type { Config, Logger } from '@peeks/runtime';
import type { Kysely } from 'kysely';
import { PgBoss } from 'pg-boss';
import { createProductQueues, JobQueue } from '@peeks/jobs';
import { esploraClient } from './bitcoin/esplora.ts';
import { runBitcoinWatcher } from './bitcoin/watcher.ts';
import { databaseOutageReporter } from './database-outage.ts';
import { runEmailDelivery, smtpMailer } from './email/email-delivery.ts';
import { runIdempotencyKeyExpiry, runSignInRecordExpiry } from './expiry.ts';
import { runHoldRelease } from './holds/hold-release.ts';
import { startCheckpointer, type LedgerLogSettings } from './ledger-log/checkpointer.ts';
import { runWebhookAttempts } from './webhooks/attempt.ts';
import { runWebhookFanOut } from './webhooks/fan-out.ts';
import { webhookSettingsFrom, type WebhookConfig, type WebhookSettings } from './webhooks/settings.ts';
import { sandboxPayouts } from './payouts/payout-provider.ts';
import { startSandboxPayoutServer } from './payouts/sandbox-payout-server.ts';
import { runWithdrawalPayouts } from './payouts/withdrawal-payout.ts';
import { runCardReturnRetry } from './returns/card-return-retry.ts';
import { runMerchantSettlement } from './settlement/merchant-settlement.ts';

export interface Workers {
  boss: PgBoss;
  jobs: JobQueue;
  stop: () => Promise<void>;
}

/** The settings of the payout, settlement, e-mail and bitcoin workers. */
type WorkerSetting =
  | 'PAYOUT_URL'
  | 'PAYOUT_TIMEOUT_MS'
  | 'PAYOUT_SANDBOX_FAIL_ACCOUNT'
  | 'SETTLEMENT_CRON'
  | 'SMTP_URL'
  | 'EMAIL_FROM'
  | 'BITCOIN_ESPLORA_URL'
  | 'BITCOIN_CONFIRMATIONS'
  | 'BITCOIN_POLL_SECONDS'
  | 'CARD_PROCESSOR_TIMEOUT_MS';

/** How long one Esplora call may take before the deposit is left to the next poll. */
const ESPLORA_TIMEOUT_MS = 10_000;

export interface WorkerDeps {
  databaseUrl: string;
  db: Kysely<Database>;
  config: Pick<Config, 'IDEMPOTENCY_KEY_HOURS' | 'HOLD_HOURS' | 'JOB_SUPERVISE_SECONDS' | WorkerSetting> &
    Partial<Pick<Config, 'NODE_ENV' | 'CARD_PROCESSOR_URL' | 'CARD_PROCESSOR_SECRET' | 'CARD_FUNDS_HOLD_HOURS'>> &
    WebhookConfig;
  now?: () => Date;
  /** Webhook delivery settings beyond the config (tests: a shorter schedule, faster polling). */
  webhooks?: Partial<WebhookSettings>;
  log: Logger;
  /**
   * Where the card processor is and the platform's credential for it, when
   * the API in the same process serves the sandbox one; otherwise
   * CARD_PROCESSOR_URL and CARD_PROCESSOR_SECRET say.
   */
  cardProcessor?: { baseUrl: () => string; credential: string };
  /** The ledger log's key and witnesses; without them the log is sequenced but no checkpoint is signed. */
  ledgerLog?: LedgerLogSettings;
}

/**
 * Starts pg-boss in its own `pgboss` schema of the same database (it creates
 * and migrates that schema itself) and registers every queue's handler. Any
 * number of processes may do this at once: pg-boss hands each job to one.
 */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const log = deps.log.child({ component: 'worker' });
  const boss = new PgBoss({
    // pg-boss hands its options to pg.Pool: with a multi-host URL, the Client that finds the writable host.
    ...poolConnection(deps.databaseUrl),
    schema: 'pgboss',
    application_name: 'peeks-worker',
    max: 4,
    superviseIntervalSeconds: deps.config.JOB_SUPERVISE_SECONDS,
    monitorIntervalSeconds: deps.config.JOB_SUPERVISE_SECONDS,
  });
  // On Ctrl-C the embedded server gets the signal too and may close our
  // connections before the workers stop; a restarted database does the same.
  const reportError = databaseOutageReporter(deps.db, log);
  boss.on('error', (error: unknown) => {
    reportError(error);
  });
  await boss.start();
  await createProductQueues(boss);
  const jobs = new JobQueue(boss);
  const settings = {
    holdHours: deps.config.HOLD_HOURS,
    ...(deps.config.CARD_FUNDS_HOLD_HOURS === undefined
      ? {}
      : { cardFundsHoldHours: deps.config.CARD_FUNDS_HOLD_HOURS }),
    jobs,
    ...(deps.now ? { now: deps.now } : {}),
  };
  await runHoldRelease(boss, { db: deps.db, settings, log });
  // Without PAYOUT_URL the sandbox provider runs beside the workers, on loopback, as a real one would run elsewhere.
  const sandboxPayoutServer =
    deps.config.PAYOUT_URL === undefined
      ? await startSandboxPayoutServer({ db: deps.db, failingAccount: deps.config.PAYOUT_SANDBOX_FAIL_ACCOUNT })
      : null;
  const provider = sandboxPayouts({
    baseUrl: deps.config.PAYOUT_URL ?? sandboxPayoutServer?.url ?? '',
    timeoutMs: deps.config.PAYOUT_TIMEOUT_MS,
  });
  await runWithdrawalPayouts(boss, { db: deps.db, settings, provider, log });
  await runMerchantSettlement(boss, {
    db: deps.db,
    settings,
    jobs,
    log,
    cron: deps.config.SETTLEMENT_CRON,
    ...(deps.now ? { now: deps.now } : {}),
  });
  // Without SMTP_URL, e-mail stays in the outbox, readable by finance operators.
  const mailer = deps.config.SMTP_URL === undefined ? null : smtpMailer(deps.config.SMTP_URL, deps.config.EMAIL_FROM);
  await runEmailDelivery(boss, {
    db: deps.db,
    mailer,
    log,
    printBodies: mailer === null && deps.config.NODE_ENV === 'development',
    ...(deps.now ? { now: deps.now } : {}),
  });
  // Without BITCOIN_ESPLORA_URL nothing watches deposit addresses, and unpaid deposits expire.
  await runBitcoinWatcher(boss, {
    db: deps.db,
    settings,
    jobs,
    log,
    esplora:
      deps.config.BITCOIN_ESPLORA_URL === undefined
        ? null
        : esploraClient({ baseUrl: deps.config.BITCOIN_ESPLORA_URL, timeoutMs: ESPLORA_TIMEOUT_MS }),
    confirmations: deps.config.BITCOIN_CONFIRMATIONS,
    pollSeconds: deps.config.BITCOIN_POLL_SECONDS,
    now: deps.now ?? (() => new Date()),
  });
  const cardProcessor =
    deps.cardProcessor ??
    (deps.config.CARD_PROCESSOR_URL !== undefined && deps.config.CARD_PROCESSOR_SECRET !== undefined
      ? { baseUrl: () => deps.config.CARD_PROCESSOR_URL ?? '', credential: deps.config.CARD_PROCESSOR_SECRET }
      : null);
  if (cardProcessor)
    await runCardReturnRetry(boss, {
      db: deps.db,
      cardCharges: sandboxCardCharges({ ...cardProcessor, timeoutMs: deps.config.CARD_PROCESSOR_TIMEOUT_MS }),
      ledgerSettings: settings,
      clock: deps.now ?? (() => new Date()),
      log,
    });
  else
    log.warn(
      'card returns a request left pending wait for its retry: set CARD_PROCESSOR_URL and CARD_PROCESSOR_SECRET',
    );
  await runIdempotencyKeyExpiry(boss, { db: deps.db, hours: deps.config.IDEMPOTENCY_KEY_HOURS, log });
  await runSignInRecordExpiry(boss, { db: deps.db, log });
  const webhooks = webhookSettingsFrom(deps.config, { ...(deps.now ? { now: deps.now } : {}), ...deps.webhooks });
  await runWebhookFanOut(boss, { db: deps.db, jobs, now: webhooks.now, log });
  await runWebhookAttempts(boss, { db: deps.db, jobs, settings: webhooks, log });
  // Read models kept after the fact; every worker process runs them, and they take turns per batch.
  const projections = startProjectionRunner(deps.db, [platformBalances], {
    // It retries from its checkpoint.
    onError: (error, projection) => {
      reportError(error, { projection });
    },
  });
  // The ledger log's sequencer: numbers events after the fact, never on the write path, polled more often than
  // the other read models so that checkpoints trail the writes by at most about 2 s.
  const sequencer = startProjectionRunner(deps.db, [ledgerLog], {
    intervalMs: SEQUENCER_POLL_MS,
    onError: (error, projection) => {
      reportError(error, { projection });
    },
  });
  const checkpointer = deps.ledgerLog
    ? startCheckpointer(deps.db, deps.ledgerLog, {
        now: deps.now ?? (() => new Date()),
        onError: (error) => {
          reportError(error, { component: 'ledger-log-checkpoints' });
        },
      })
    : null;
  log.info('workers started');
  return {
    boss,
    jobs,
    stop: async () => {
      await checkpointer?.stop();
      await sequencer.stop();
      await projections.stop();
      await boss.stop({ graceful: true, timeout: 10_000 });
      await sandboxPayoutServer?.close();
      mailer?.close();
    },
  };
}

export { deliveryIdOf } from './webhooks/messages.ts';
export { signMessage } from './webhooks/signing.ts';
export { ledgerLogSettingsFrom, type LedgerLogSettings } from './ledger-log/checkpointer.ts';
