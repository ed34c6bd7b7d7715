import { randomBytes } from 'node:crypto';
import { runDatabaseProcess } from '@peeks/db';
import { groupCommitContention, groupCommitCounts, limitLedgerQueue } from '@peeks/ledger-store';
import { ledgerLogSettingsFrom, startWorkers } from '@peeks/worker';
import {
  buildApp,
  configuredRates,
  ownAddress,
  createDemoData,
  depositSettingsFrom,
  describeDemoAccounts,
  serveSandboxProcessor,
  WEB_DIST,
} from '@peeks/api';

/**
 * `npm start`: database (embedded unless DATABASE_URL), migrations, demo
 * accounts on an empty database (unless DEMO_DATA=off), the HTTP API with
 * the web app on one port, and the workers in the same process
 * unless WORKERS=off.
 */
runDatabaseProcess(
  'peeks-api',
  async ({ config, log, shutdown, db, databaseUrl, readReplica }) => {
    if (config.LEDGER_QUEUE_LIMIT !== undefined) limitLedgerQueue(db, config.LEDGER_QUEUE_LIMIT);
    if (config.DEMO_DATA === 'on') {
      const demoAccounts = await createDemoData(db, { holdHours: config.HOLD_HOURS }, new Date());
      // Straight to the console, never through the logger: the log keeps no passwords.
      if (demoAccounts) process.stdout.write(`${describeDemoAccounts(demoAccounts)}\n`);
    }
    // One credential for the sandbox processor this app serves and the workers that call it.
    const processorSecret = config.CARD_PROCESSOR_SECRET ?? randomBytes(32).toString('base64url');
    let ownUrl = '';
    // The ledger log's key: the workers sign checkpoints with it, the API hands out its verifier key.
    const ledgerLog = await ledgerLogSettingsFrom(config, log);
    // The workers first: in this process the app enqueues through their queue.
    const workers =
      config.WORKERS === 'on'
        ? await startWorkers({
            databaseUrl,
            db,
            config,
            log,
            ledgerLog,
            cardProcessor: { baseUrl: () => config.CARD_PROCESSOR_URL ?? ownUrl, credential: processorSecret },
          })
        : null;
    if (workers) shutdown.add('workers', () => workers.stop());
    const app = await buildApp({
      ...(workers ? { jobs: workers.jobs } : {}),
      db,
      databaseUrl,
      readReplica,
      log,
      webRoot: WEB_DIST,
      insecureCookies: config.COOKIE_SECURE === 'off',
      production: config.NODE_ENV === 'production',
      // Development without a mail server: operators read the outbox's texts, codes included.
      outboxBodies: config.NODE_ENV === 'development' && config.SMTP_URL === undefined,
      webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
      trustProxyHops: config.TRUST_PROXY_HOPS,
      holdHours: config.HOLD_HOURS,
      cardFundsHoldHours: config.CARD_FUNDS_HOLD_HOURS,
      settlementCron: config.SETTLEMENT_CRON,
      corrections: { maxMinor: config.CORRECTION_MAX_MINOR, approvalMinor: config.CORRECTION_APPROVAL_MINOR },
      cardProcessor: {
        timeoutMs: config.CARD_PROCESSOR_TIMEOUT_MS,
        ...(config.CARD_PROCESSOR_URL === undefined ? {} : { url: config.CARD_PROCESSOR_URL }),
        secret: processorSecret,
      },
      // The sandbox processor is a stand-in for a real party: production serves it only when told to.
      sandboxProcessor: serveSandboxProcessor(config),
      deposits: depositSettingsFrom(config),
      ledgerLogKey: ledgerLog.key.vkey,
      exchangeRates: configuredRates(config.CAD_USD_RATE),
    });
    shutdown.add('http server', () => app.close());
    await app.listen({ port: config.PORT, host: config.HOST });
    const { port } = app.server.address() as { port: number };
    ownUrl = ownAddress(app.server.address());
    log.info({ url: `http://localhost:${port}` }, 'Peeks Wallet is up');
    // On request (kill -USR2), one line of how the group commit's batches met other processes' so far: bench:api reads it.
    const reportBatches = () => {
      const counts = { at: Date.now(), ...groupCommitCounts(db), ...groupCommitContention(db) };
      process.stdout.write(`ledger group commit: ${JSON.stringify(counts)}\n`);
    };
    process.on('SIGUSR2', reportBatches);
    return undefined;
  },
  { readReplica: true },
);
