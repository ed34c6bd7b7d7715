import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { percentile } from './bench-kit.ts';
import { Deployment, must, pick, signUp, sleep, storedCard, type Client, type Member } from './deployment.ts';

/**
 * `npm run soak`: one API process and one worker process (as `npm start`
 * with WORKERS=off and `npm run worker` run them) on a PostgreSQL of their
 * own, driven at half their peak rate for SOAK_MINUTES (default 10), to
 * show whether memory or latency creeps up over time.
 *
 * First the peak: SOAK_PEAK_CONNECTIONS (32) closed-loop connections send
 * funds for 15 s. Then an open loop starts sends at half that rate, each
 * with its own Idempotency-Key (one in ten a payment to a merchant, so the
 * worker has webhook deliveries and hold releases to do, HOLD_HOURS=0). Every
 * 5 s it reads each process's resident memory (VmRSS); every 30 s it closes
 * a window of latencies. At the end it prints, per process, the memory at
 * the start and end of the measured part (after the first minute) with the
 * slope of a least-squares line through the samples, and the same for the
 * windows' p99. It passes or fails nothing: the numbers go to
 * docs/benchmarks/soak.md.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 40);
const PEAK_CONNECTIONS = Number(process.env.SOAK_PEAK_CONNECTIONS ?? 32);
const PEAK_SECONDS = 15;
const SAMPLE_MS = 5_000;
const WINDOW_MS = 30_000;
/** The first minute warms caches, JIT and pools: left out of the slopes. */
const WARM_UP_MS = 60_000;

const say = (line: string) => process.stderr.write(`soak: ${line}\n`);

interface Payer {
  client: Client;
  guserId: string;
}

/** One send-fund with a fresh key; its latency in ms when it was done (200), else null. */
async function send(port: number, from: Payer, to: string, amount: number): Promise<number | null> {
  const started = performance.now();
  try {
    const answer = await from.client.call(
      port,
      'POST',
      '/api/account/send-fund',
      { guser_id: to, amount },
      { 'idempotency-key': randomUUID() },
    );
    return answer.status === 200 ? performance.now() - started : null;
  } catch {
    return null;
  }
}

function residentMb(member: Member): number | null {
  const pid = member.child?.child.pid;
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let top = 0;
  let bottom = 0;
  for (const [x, y] of points) {
    top += (x - meanX) * (y - meanY);
    bottom += (x - meanX) ** 2;
  }
  return bottom === 0 ? Number.NaN : top / bottom;
}

async function main(): Promise<void> {
  const deployment = new Deployment(0);
  try {
    await deployment.startDatabase();
    const api = await deployment.add('api', 'api');
    const worker = await deployment.add('worker', 'worker');
    const port = api.port;

    const shop = await signUp(port, 'business', 'soak_shop');
    const shopGuser = (shop.body.user as { guser_id: string }).guser_id;
    const payers: Payer[] = [];
    for (let index = 0; index < USERS; index++) {
      const client = await signUp(port, 'personal', `soak_${index}`);
      const cardId = await storedCard(port, client);
      await must('purchase', () =>
        client.call(port, 'POST', '/api/account/purchase', {
          payment_method_id: cardId,
          coin_amt: 5_000_00,
          currency: 'USD',
        }),
      );
      payers.push({ client, guserId: (client.body.user as { guser_id: string }).guser_id });
    }
    const nextSend = () => {
      const from = pick(payers);
      if (Math.random() < 0.1) return send(port, from, shopGuser, 1 + Math.floor(Math.random() * 50));
      let to = pick(payers);
      while (to === from) to = pick(payers);
      return send(port, from, to.guserId, 1 + Math.floor(Math.random() * 300));
    };

    // The peak, closed loop.
    let done = 0;
    const peakEnds = performance.now() + PEAK_SECONDS * 1_000;
    await Promise.all(
      Array.from({ length: PEAK_CONNECTIONS }, async () => {
        while (performance.now() < peakEnds) if ((await nextSend()) !== null) done++;
      }),
    );
    const peak = done / PEAK_SECONDS;
    const rate = peak / 2;
    say(`peak ${peak.toFixed(0)} sends/s with ${PEAK_CONNECTIONS} connections; soaking at ${rate.toFixed(0)}/s`);

    // The soak, open loop: sends start on a clock, whatever the answers' pace.
    const members = [api, worker];
    const memory = new Map<string, [number, number][]>(members.map((member) => [member.name, []]));
    const windows: { atMs: number; p99: number; count: number; failed: number }[] = [];
    const started = performance.now();
    const ends = started + MINUTES * 60_000;
    let latencies: number[] = [];
    let failed = 0;
    const inFlight = new Set<Promise<void>>();
    const sampler = setInterval(() => {
      for (const member of members) {
        const mb = residentMb(member);
        if (mb !== null) memory.get(member.name)?.push([performance.now() - started, mb]);
      }
    }, SAMPLE_MS);
    let windowEnds = started + WINDOW_MS;
    const gapMs = 1_000 / rate;
    let next = started;
    while (performance.now() < ends) {
      const now = performance.now();
      if (now >= windowEnds) {
        const sorted = latencies.sort((a, b) => a - b);
        windows.push({ atMs: windowEnds - started, p99: percentile(sorted, 99), count: sorted.length, failed });
        say(
          `${Math.round((windowEnds - started) / 1000)} s: ${(sorted.length / (WINDOW_MS / 1000)).toFixed(0)}/s, ` +
            `p99 ${percentile(sorted, 99).toFixed(1)} ms, ${failed} not done; ` +
            members.map((member) => `${member.name} ${residentMb(member)?.toFixed(0) ?? '?'} MB`).join(', '),
        );
        latencies = [];
        failed = 0;
        windowEnds += WINDOW_MS;
      }
      while (next <= now) {
        const flight = nextSend().then((ms) => {
          if (ms === null) failed++;
          else latencies.push(ms);
          inFlight.delete(flight);
        });
        inFlight.add(flight);
        next += gapMs;
      }
      await sleep(Math.max(1, Math.min(next, windowEnds) - performance.now()));
    }
    clearInterval(sampler);
    await Promise.all(inFlight);

    const minutes = (ms: number) => ms / 60_000;
    const measured = <T extends { atMs: number }>(items: T[]) => items.filter((item) => item.atMs >= WARM_UP_MS);
    process.stdout.write(
      `soak: ${MINUTES} min at ${rate.toFixed(0)} sends/s (half of a ${peak.toFixed(0)}/s peak); after the first minute:\n`,
    );
    for (const member of members) {
      const samples = measured((memory.get(member.name) ?? []).map(([atMs, mb]) => ({ atMs, mb })));
      const first = samples[0]?.mb ?? Number.NaN;
      const last = samples.at(-1)?.mb ?? Number.NaN;
      const max = Math.max(...samples.map((sample) => sample.mb));
      const perMinute = slope(samples.map((sample) => [minutes(sample.atMs), sample.mb]));
      process.stdout.write(
        `  ${member.name.padEnd(6)} RSS ${first.toFixed(0)} → ${last.toFixed(0)} MB (max ${max.toFixed(0)}), ` +
          `slope ${perMinute >= 0 ? '+' : ''}${perMinute.toFixed(2)} MB/min\n`,
      );
    }
    const kept = measured(windows);
    const p99Slope = slope(kept.map((window) => [minutes(window.atMs), window.p99]));
    process.stdout.write(
      `  p99    ${kept[0]?.p99.toFixed(1) ?? '?'} → ${kept.at(-1)?.p99.toFixed(1) ?? '?'} ms over ${kept.length} windows of 30 s, ` +
        `slope ${p99Slope >= 0 ? '+' : ''}${p99Slope.toFixed(2)} ms/min; ` +
        `${kept.reduce((sum, window) => sum + window.failed, 0)} sends not done\n`,
    );
  } finally {
    await deployment.stopAll();
  }
}

await main();
