import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectDatabase } from '@peeks/db';
import { sql } from 'kysely';
import { Deployment, must, PASSWORD, pick, signUp, sleep, storedCard, type Client } from './deployment.ts';

/**
 * `npm run chaos`: the product as a deployment of two API processes and two
 * worker processes on a PostgreSQL of its own, under a load of sends,
 * payments to a merchant, card purchases and e-mail-transfer deposits
 * (cleared by an operator), every request with an Idempotency-Key and
 * retried with it until answered. Meanwhile it SIGKILLs API and worker
 * processes, pauses a worker with SIGSTOP past its heartbeat, and restarts
 * PostgreSQL, fast and immediate. Then, with everything back and the jobs
 * drained, it checks that nothing was lost or done twice:
 *
 * - every answered request's transaction is in the ledger exactly once, and
 *   every answer for one key named the same transaction;
 * - every key the server stored as done names a transaction in the ledger;
 * - every approved card charge bought coins exactly once (none refunded);
 * - `ledger:verify` is clean;
 * - every webhook delivery reached the receiver at least once, under its
 *   one `webhook-id`, and every payment to the merchant has its delivery;
 * - no job is left waiting or failed, and no ended hold is still held.
 *
 * It prints one summary line and exits 1 on any loss. CHAOS_SECONDS sets the
 * length of the load (default 60), CHAOS_USERS the users (24),
 * CHAOS_CONNECTIONS the concurrent requests (12), CHAOS_EVERY_MS the mean
 * time between two faults (5000). Everything stays on loopback. With
 * `-- --cluster`, on a pg_auto_failover formation (see CLUSTER below).
 */
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 60);
const USERS = Number(process.env.CHAOS_USERS ?? 24);
const CONNECTIONS = Number(process.env.CHAOS_CONNECTIONS ?? 12);
const EVERY_MS = Number(process.env.CHAOS_EVERY_MS ?? 5_000);
/** CHAOS_FAULTS: only these kinds of fault (comma-separated, e.g. `lose-primary`), to repeat one more often. */
const ONLY_FAULTS = (process.env.CHAOS_FAULTS ?? '')
  .split(',')
  .map((kind) => kind.trim())
  .filter(Boolean);
/** How long a request is retried with its key before it counts as unanswered. */
const RETRY_FOR_MS = 60_000;
/** How long the checks wait for jobs and deliveries to drain after the load. */
const DRAIN_MS = 180_000;
const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * `-- --cluster`: on a pg_auto_failover formation (monitor on 6200, nodes on
 * 6201 and 6202) instead of an embedded server, and the database faults are a
 * switchover and the loss of the primary whole (keeper and postmaster
 * SIGKILLed) instead of restarts. Each prints how long writes were unavailable.
 */
const CLUSTER = process.argv.includes('--cluster');
const CLUSTER_PORT = 6200;
/** Writes must be back within this of each database fault. */
const WRITES_BACK_MS = 60_000;
/** A line on stderr of what the run is doing, for a run that hangs or fails. */
const say = (line: string) => process.stderr.write(`chaos: ${line}\n`);

// ---------------------------------------------------------------------------
// The webhook receiver: answers 2xx, counts each webhook-id

const received = new Map<string, number>();

function startReceiver(): Promise<http.Server> {
  const server = http.createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const id = incoming.headers['webhook-id'];
      if (typeof id === 'string') received.set(id, (received.get(id) ?? 0) + 1);
      answer.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    });
  });
}

// ---------------------------------------------------------------------------
// The load: each request carries a key and is retried with it until answered

type Kind = 'send' | 'pay-merchant' | 'purchase' | 'deposit' | 'clear-deposit';

interface Sent {
  kind: Kind;
  key: string;
  /** The final answer's status; null when no answer came within RETRY_FOR_MS. */
  status: number | null;
  /** tx ids named by 2xx answers; more than one would be a key applied twice. */
  txIds: Set<string>;
  attempts: number;
}

interface User {
  client: Client;
  userId: number;
  guserId: string;
  cardId: number;
}

const sent: Sent[] = [];

/** Any live API process: a refused connection or a 5xx tries another, with the same key. */
async function keyed(deployment: Deployment, client: Client, kind: Kind, route: string, body: unknown): Promise<Sent> {
  const record: Sent = { kind, key: randomUUID(), status: null, txIds: new Set(), attempts: 0 };
  sent.push(record);
  const deadline = Date.now() + RETRY_FOR_MS;
  let backoff = 100;
  while (Date.now() < deadline) {
    const api = pick(deployment.apis());
    record.attempts++;
    try {
      const answer = await client.call(api.port, 'POST', route, body, { 'idempotency-key': record.key });
      if (answer.status < 500) {
        record.status = answer.status;
        const txId = txIdOf(answer.body);
        if (answer.status === 200 && txId) record.txIds.add(txId);
        // A 409 for a key still in flight elsewhere: the first attempt may yet finish; ask again.
        if (answer.status !== 409) return record;
      }
    } catch {
      // Connection refused or reset by a killed process: retried below.
    }
    await sleep(backoff);
    backoff = Math.min(2_000, backoff * 2);
  }
  return record;
}

function txIdOf(body: Record<string, unknown>): string | null {
  const data = body.data as Record<string, unknown> | undefined;
  const transaction = (data?.transaction ?? body.transaction) as Record<string, unknown> | undefined;
  const txId = transaction?.tx_id ?? data?.tx_id ?? body.tx_id;
  return typeof txId === 'string' ? txId : null;
}

/** Set-up calls, before the faults: retried until 2xx. */
async function loadLoop(deployment: Deployment, users: User[], merchant: User, operator: Client, until: number) {
  const deposits: string[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const user = pick(users);
        const roll = Math.random();
        if (roll < 0.45) {
          let to = pick(users);
          while (to === user) to = pick(users);
          await keyed(deployment, user.client, 'send', '/api/account/send-fund', {
            guser_id: to.guserId,
            amount: 1 + Math.floor(Math.random() * 300),
          });
        } else if (roll < 0.7) {
          await keyed(deployment, user.client, 'pay-merchant', '/api/account/send-fund', {
            guser_id: merchant.guserId,
            amount: 1 + Math.floor(Math.random() * 300),
          });
        } else if (roll < 0.85) {
          await keyed(deployment, user.client, 'purchase', '/api/account/purchase', {
            payment_method_id: user.cardId,
            coin_amt: (1 + Math.floor(Math.random() * 20)) * 100,
            currency: 'USD',
          });
        } else if (roll < 0.95 || deposits.length === 0) {
          const entered = await keyed(deployment, user.client, 'deposit', '/api/account/deposit-zell', {
            amount: 1 + Math.floor(Math.random() * 50),
          });
          deposits.push(...entered.txIds);
        } else {
          const txId = deposits.splice(Math.floor(Math.random() * deposits.length), 1)[0] as string;
          const entered = await keyed(deployment, operator, 'clear-deposit', '/api/operations/clear-deposit', {
            tx_id: txId,
            reference: `chaos-${txId.slice(0, 8)}`,
            currency: 'USD',
            amount_received: await depositAmount(deployment, txId),
          });
          entered.txIds.add(txId);
        }
      }
    }),
  );
}

async function depositAmount(deployment: Deployment, txId: string): Promise<number> {
  // Up to two minutes: a restart under load may keep the database away that long.
  for (let tries = 0; tries < 240; tries++) {
    const handle = connectDatabase(deployment.databaseUrl, { max: 1, applicationName: 'peeks-chaos' });
    try {
      const row = await handle.db
        .selectFrom('ledger_transactions')
        .select('amount')
        .where('tx_id', '=', txId)
        .executeTakeFirst();
      if (row) return row.amount;
    } catch {
      // The database is restarting.
    } finally {
      await handle.close();
    }
    await sleep(500);
  }
  throw new Error(`deposit ${txId} never reached the read model`);
}

// ---------------------------------------------------------------------------
// The faults

interface Faults {
  apiKills: number;
  workerKills: number;
  pauses: number;
  fastRestarts: number;
  immediateRestarts: number;
  /** Formation faults and how long writes were unavailable for each (ms). */
  switchovers: number[];
  primaryLosses: number[];
}

async function faultLoop(deployment: Deployment, until: number): Promise<Faults> {
  const faults: Faults = {
    apiKills: 0,
    workerKills: 0,
    pauses: 0,
    fastRestarts: 0,
    immediateRestarts: 0,
    switchovers: [],
    primaryLosses: [],
  };
  // Every kind once in a shuffled round before any repeats, so a short run still has each.
  const processKinds = ['api', 'worker', 'pause'] as const;
  type Kind = (typeof processKinds)[number] | 'fast' | 'immediate' | 'switchover' | 'lose-primary';
  // On a formation its two faults come first in each round: they take long, and a short run must still have both.
  const allKinds = (): Kind[] =>
    CLUSTER
      ? [...[...processKinds].sort(() => Math.random() - 0.5), 'lose-primary', 'switchover']
      : [...processKinds, 'fast' as const, 'immediate' as const].sort(() => Math.random() - 0.5);
  const newRound = (): Kind[] => allKinds().filter((kind) => ONLY_FAULTS.length === 0 || ONLY_FAULTS.includes(kind));
  if (newRound().length === 0) throw new Error(`CHAOS_FAULTS names no fault of this run: ${ONLY_FAULTS.join(', ')}`);
  let round: Kind[] = [];
  while (Date.now() < until) {
    await sleep(EVERY_MS / 2 + Math.random() * EVERY_MS);
    if (Date.now() >= until) break;
    if (round.length === 0) round = newRound();
    const kind = round.pop() as Kind;
    say(`fault: ${kind}`);
    const workers = deployment.members.filter((member) => member.kind === 'worker' && member.child && !member.paused);
    switch (kind) {
      case 'api':
        await deployment.kill(pick(deployment.apis()));
        faults.apiKills++;
        break;
      case 'worker':
        if (workers.length === 0) break;
        await deployment.kill(pick(workers));
        faults.workerKills++;
        break;
      case 'pause':
        if (workers.length === 0) break;
        // Not awaited: the load and further faults go on while it sleeps.
        void deployment.pause(pick(workers), 12_000 + Math.random() * 4_000);
        faults.pauses++;
        break;
      case 'fast':
        await deployment.restartDatabase('fast');
        faults.fastRestarts++;
        break;
      case 'immediate':
        await deployment.restartDatabase('immediate');
        faults.immediateRestarts++;
        break;
      case 'switchover': {
        const gap = await deployment.writeGapDuring(() => deployment.switchover());
        say(`switchover: writes unavailable for ${(gap / 1000).toFixed(1)} s`);
        faults.switchovers.push(gap);
        break;
      }
      case 'lose-primary': {
        const gap = await deployment.writeGapDuring(() => deployment.losePrimary());
        say(`loss of the primary: writes unavailable for ${(gap / 1000).toFixed(1)} s`);
        faults.primaryLosses.push(gap);
        break;
      }
    }
  }
  return faults;
}

// ---------------------------------------------------------------------------
// The checks

interface Drain {
  jobsLeft: number;
  pendingDeliveries: number;
  heldPast: number;
  /** Jobs that were waiting out a retry backoff when the first drain ended, made due at once. */
  madeDue: number;
  /** The jobs still left at the end: queue, state, retries and when due, for the report. */
  left: string[];
}

/**
 * Waits for the jobs, deliveries and holds to drain. A job whose attempts
 * failed while the database was away waits out pg-boss's backoff (10 s
 * doubling, up to 10 min for a webhook attempt), and a delivery whose POST
 * timed out waits for its next attempt (5 s, then 5 min): either can outlast
 * the drain. Jobs still scheduled for later after it are made due at once
 * (as an operator's "retry now" would) and given a second drain. A job that
 * failed for good or is still active is left as it is and reported.
 */
async function waitForDrain(databaseUrl: string): Promise<Drain> {
  const handle = connectDatabase(databaseUrl, { max: 2, applicationName: 'peeks-chaos' });
  let state = { jobsLeft: -1, pendingDeliveries: -1, heldPast: -1 };
  let madeDue = 0;
  const drained = () => state.jobsLeft === 0 && state.pendingDeliveries === 0 && state.heldPast === 0;
  try {
    for (const pass of [1, 2]) {
      const deadline = Date.now() + DRAIN_MS;
      while (Date.now() < deadline) {
        state = await drainState(handle.db);
        if (drained()) break;
        await sleep(1_000);
      }
      if (drained() || pass === 2) break;
      const due = await sql<{ id: string }>`
        UPDATE pgboss.job SET start_after = now() WHERE state IN ('created', 'retry') AND start_after > now() RETURNING id`.execute(
        handle.db,
      );
      madeDue = due.rows.length;
      if (madeDue === 0) break;
      say(
        `${madeDue} jobs scheduled for later (a retry's backoff, a delivery's next attempt) made due now; draining again`,
      );
    }
    const left = drained()
      ? []
      : (
          await sql<{ name: string; state: string; retry_count: number; due_in: string }>`
            SELECT name, state, retry_count, round(extract(epoch FROM start_after - now()))::text AS due_in
            FROM pgboss.job
            WHERE state IN ('created', 'retry', 'active', 'failed') AND singleton_key IS DISTINCT FROM '__pgboss__cron'
              AND name NOT IN (SELECT name FROM pgboss.schedule)
            ORDER BY start_after LIMIT 10`.execute(handle.db)
        ).rows.map((job) => `${job.name} ${job.state} after ${job.retry_count} retries, due in ${job.due_in} s`);
    return { ...state, madeDue, left };
  } finally {
    await handle.close();
  }
}

async function drainState(db: ReturnType<typeof connectDatabase>['db']) {
  // Schedules (pg-boss's cron-made jobs) come and go; every other job must be done.
  const jobs = await sql<{ count: string }>`
    SELECT count(*)::text AS count FROM pgboss.job
    WHERE state IN ('created', 'retry', 'active', 'failed') AND singleton_key IS DISTINCT FROM '__pgboss__cron'
      AND name NOT IN (SELECT name FROM pgboss.schedule)`.execute(db);
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(db.fn.countAll<string>().as('count'))
    .where('state', '!=', 'delivered')
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('ledger_transactions')
    .select(db.fn.countAll<string>().as('count'))
    .where('hold_release_at', '<=', new Date())
    .where('hold_released_at', 'is', null)
    .where('hold_amount', '>', 0)
    .executeTakeFirstOrThrow();
  return {
    jobsLeft: Number(jobs.rows[0]?.count ?? 0),
    pendingDeliveries: Number(deliveries.count),
    heldPast: Number(held.count),
  };
}

interface Findings {
  problems: string[];
  answered: number;
  unanswered: number;
  deliveries: number;
}

async function check(deployment: Deployment, merchantOwner: string): Promise<Findings> {
  const problems: string[] = [];
  const handle = connectDatabase(deployment.databaseUrl, { max: 2, applicationName: 'peeks-chaos' });
  const { db } = handle;
  try {
    // 1. Each answered request's transaction once in the ledger; one transaction per key.
    const named = new Set<string>();
    for (const record of sent) {
      if (record.txIds.size > 1) problems.push(`key ${record.key} answered with ${record.txIds.size} transactions`);
      if (record.kind !== 'clear-deposit') for (const txId of record.txIds) named.add(txId);
    }
    const found = new Map<string, number>();
    const ids = [...named];
    for (let start = 0; start < ids.length; start += 1_000) {
      const rows = await db
        .selectFrom('ledger_transactions')
        .select(['tx_id'])
        .where('tx_id', 'in', ids.slice(start, start + 1_000))
        .execute();
      for (const row of rows) found.set(row.tx_id, (found.get(row.tx_id) ?? 0) + 1);
    }
    for (const txId of ids)
      if (found.get(txId) !== 1) problems.push(`answered ${txId} is in the ledger ${found.get(txId) ?? 0} times`);

    // 2. Keys the server completed name transactions that exist, each once across keys.
    const keys = await db
      .selectFrom('idempotency_keys')
      .select(['key', 'status_code', 'response'])
      .where('completed_at', 'is not', null)
      .where('status_code', '=', 200)
      .execute();
    const perTx = new Map<string, number>();
    for (const row of keys) {
      const txId = txIdOf(
        (typeof row.response === 'string' ? JSON.parse(row.response) : row.response) as Record<string, unknown>,
      );
      if (txId) perTx.set(txId, (perTx.get(txId) ?? 0) + 1);
    }
    const clearKeys = new Set(sent.filter((record) => record.kind === 'clear-deposit').map((record) => record.key));
    for (const row of keys)
      if (clearKeys.has(row.key)) {
        const txId = txIdOf(
          (typeof row.response === 'string' ? JSON.parse(row.response) : row.response) as Record<string, unknown>,
        );
        if (txId) perTx.delete(txId);
      }
    for (const [txId, count] of perTx) if (count > 1) problems.push(`${count} keys applied ${txId}`);

    // 3. Card charges and card-paid transactions agree one to one.
    const charges = await db
      .selectFrom('sandbox_charges')
      .select(['idempotency_key', 'refunded_at'])
      .where('status', '=', 'approved')
      .execute();
    const purchases = await db
      .selectFrom('ledger_transactions')
      .select(db.fn.countAll<string>().as('count'))
      // Every transaction a card paid for: here, the coin purchases.
      .where('payment_method_type', '=', 'CC')
      .executeTakeFirstOrThrow();
    const kept = charges.filter((charge) => charge.refunded_at === null).length;
    if (kept !== Number(purchases.count))
      problems.push(`${kept} approved charges kept, ${purchases.count} card-paid transactions in the ledger`);

    // 4. Every payment to the merchant has its delivery, and every delivery reached the receiver under its id.
    const payments = await db
      .selectFrom('ledger_transactions')
      .select('tx_id')
      .where('payee_owner_id', '=', merchantOwner)
      .execute();
    const deliveries = await db.selectFrom('webhook_deliveries').select(['delivery_id', 'tx_id', 'state']).execute();
    const delivered = new Set(deliveries.map((delivery) => delivery.tx_id));
    for (const payment of payments)
      if (!delivered.has(payment.tx_id))
        problems.push(`payment ${payment.tx_id} to the merchant has no webhook delivery`);
    for (const delivery of deliveries) {
      if (delivery.state !== 'delivered') problems.push(`delivery ${delivery.delivery_id} is ${delivery.state}`);
      if (!received.has(delivery.delivery_id))
        problems.push(`delivery ${delivery.delivery_id} never reached the receiver`);
    }
    const known = new Set(deliveries.map((delivery) => delivery.delivery_id));
    for (const id of received.keys()) if (!known.has(id)) problems.push(`the receiver got an unknown webhook-id ${id}`);

    // 5. The ledger verifies.
    const verify = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'packages/ledger-store/src/verify-cli.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: deployment.databaseUrl, LOG_LEVEL: 'warn' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).then(
      () => null,
      (error: unknown) => {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        return `${stdout}${stderr}`.slice(-2_000);
      },
    );
    if (verify !== null) problems.push(`ledger:verify failed: ${verify}`);

    return {
      problems,
      answered: sent.filter((record) => record.status !== null).length,
      unanswered: sent.filter((record) => record.status === null).length,
      deliveries: deliveries.length,
    };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------

async function main(): Promise<number> {
  const receiver = await startReceiver();
  const deployment = new Deployment((receiver.address() as net.AddressInfo).port);
  const started = Date.now();
  try {
    if (CLUSTER) {
      await deployment.startFormation(CLUSTER_PORT);
      say(`formation up at ${deployment.databaseUrl}`);
    } else {
      await deployment.startDatabase();
      say(`PostgreSQL up at ${new URL(deployment.databaseUrl).port}`);
    }
    // The first API process migrates alone; the others start on a migrated database.
    const first = await deployment.add('api', 'api-1');
    await Promise.all([
      deployment.add('api', 'api-2'),
      deployment.add('worker', 'worker-1'),
      deployment.add('worker', 'worker-2'),
    ]);
    const port = first.port;
    say('two API and two worker processes up');

    const merchantClient = await signUp(port, 'business', 'chaos_shop');
    const merchantUser = merchantClient.body.user as { user_id: number; guser_id: string; merchant_id: number };
    await must('create-webhook', () =>
      merchantClient.call(port, 'POST', '/api/webhook/create-webhook', {
        state: 'enabled',
        url: deployment.receiverUrl,
        events: ['purchase'],
      }),
    );
    const merchantOwner = `merchant-${merchantUser.merchant_id}`;

    const users: User[] = [];
    for (let index = 0; index < USERS; index++) {
      const client = await signUp(port, 'personal', `chaos_${index}`);
      const user = client.body.user as { user_id: number; guser_id: string };
      const cardId = await storedCard(port, client);
      users.push({ client, userId: user.user_id, guserId: user.guser_id, cardId });
      await must('first purchase', () =>
        client.call(port, 'POST', '/api/account/purchase', {
          payment_method_id: cardId,
          coin_amt: 50_00,
          currency: 'USD',
        }),
      );
    }
    const operator = await signUp(port, 'personal', 'chaos_operator');
    await promoteToOperator(deployment, operator.username);
    // The role is read at sign-in: sign in again.
    await must('operator sign-in', () =>
      operator.call(port, 'POST', '/api/login', {
        username: operator.username,
        password: PASSWORD,
      }),
    );

    say(`${users.length} users, a merchant with a webhook and an operator ready; load for ${SECONDS} s`);
    const until = Date.now() + SECONDS * 1_000;
    const [faults] = await Promise.all([
      faultLoop(deployment, until),
      loadLoop(
        deployment,
        users,
        { client: merchantClient, userId: merchantUser.user_id, guserId: merchantUser.guser_id, cardId: 0 },
        operator,
        until,
      ),
    ]);
    // Every process back and running before the checks.
    for (const member of deployment.members) if (member.paused) member.child?.child.kill('SIGCONT');
    for (const api of deployment.apis()) await deployment.healthy(api);
    say('load over; waiting for the jobs to drain');
    const drain = await waitForDrain(deployment.databaseUrl);
    const findings = await check(deployment, merchantOwner);
    if (drain.jobsLeft > 0)
      findings.problems.push(`${drain.jobsLeft} jobs left waiting or failed after the drain: ${drain.left.join('; ')}`);
    if (drain.heldPast > 0) findings.problems.push(`${drain.heldPast} holds past their release time`);
    for (const [name, gaps] of [
      ['switchover', faults.switchovers],
      ['loss of the primary', faults.primaryLosses],
    ] as const)
      for (const gap of gaps)
        if (gap > WRITES_BACK_MS) findings.problems.push(`writes were unavailable for ${gap} ms after a ${name}`);
    const wanted = (kind: string) => ONLY_FAULTS.length === 0 || ONLY_FAULTS.includes(kind);
    if (
      CLUSTER &&
      ((wanted('switchover') && faults.switchovers.length === 0) ||
        (wanted('lose-primary') && faults.primaryLosses.length === 0))
    )
      findings.problems.push('the run was too short for both a switchover and the loss of the primary');
    const crashes = deployment.members.reduce((sum, member) => sum + member.crashes, 0);

    const ok = findings.problems.length === 0;
    for (const problem of findings.problems.slice(0, 50)) process.stderr.write(`chaos: ${problem}\n`);
    process.stdout.write(
      `chaos: ${SECONDS} s, ${sent.length} requests (${findings.answered} answered, ${findings.unanswered} unanswered, ` +
        `${sent.reduce((sum, record) => sum + record.attempts - 1, 0)} retries); ` +
        `faults: ${faults.apiKills} API kills, ${faults.workerKills} worker kills, ${faults.pauses} worker pauses, ` +
        (CLUSTER
          ? `${faults.switchovers.length} switchovers (writes unavailable ${seconds(faults.switchovers)}), ` +
            `${faults.primaryLosses.length} losses of the primary (${seconds(faults.primaryLosses)}), ` +
            `${deployment.recreated.length} lost nodes created afresh, `
          : `${faults.fastRestarts} fast and ${faults.immediateRestarts} immediate database restarts, `) +
        `${crashes} exits of their own; ` +
        (drain.madeDue > 0 ? `${drain.madeDue} jobs made due after the first drain; ` : '') +
        `${findings.deliveries} webhook deliveries, ${received.size} ids received; ` +
        `${ok ? 'nothing lost, nothing twice: OK' : `${findings.problems.length} problems: FAILED`} ` +
        `(${Math.round((Date.now() - started) / 1000)} s in all)\n`,
    );
    return ok ? 0 : 1;
  } finally {
    await deployment.stopAll();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

const seconds = (gaps: number[]) => gaps.map((gap) => `${(gap / 1000).toFixed(1)} s`).join(', ') || 'none';

async function promoteToOperator(deployment: Deployment, username: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'services/api/src/features/operations/operator-cli.ts'), username, `${username}@example.com`],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: deployment.databaseUrl, LOG_LEVEL: 'warn' } },
  );
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(
    `chaos: could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  // The load's requests would go on retrying until the run's end; everything is stopped already.
  process.exit(2);
});
