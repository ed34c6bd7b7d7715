import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { openDatabaseServer } from '@peeks/db';
import { createLogger, readConfig } from '@peeks/runtime';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import { createScratchDatabase } from './bench-kit.ts';

/**
 * `npm run lighthouse`: Lighthouse's mobile audit (simulated throttling:
 * slow 4G, a 4x slower CPU) of the sign-in page and a signed-in demo
 * user's dashboard, against `npm start` on a loopback port with a fresh
 * database (DATABASE_URL's server, or an embedded one under
 * .data/lighthouse). Prints performance, accessibility and best practices
 * for each run and their medians; LIGHTHOUSE_RUNS sets the runs per page
 * (default 3), LIGHTHOUSE_PAGES one page (sign-in, dashboard). Each run's
 * full report is kept in .data/lighthouse/.
 * Debian's Chromium at /usr/bin/chromium, or CHROMIUM_PATH.
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** LIGHTHOUSE_PAGES=sign-in or dashboard audits that page alone. */
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',');
const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTS = path.join(ROOT, '.data', 'lighthouse');
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

interface Started {
  url: string;
  /** The demo personal user's username and password, as `npm start` prints them. */
  personal: { username: string; password: string };
  stop: () => Promise<void>;
}

/** `npm start` on a free loopback port, its own process group so that stopping it ends the server it runs. */
async function startPeeks(databaseUrl: string): Promise<Started> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      resolve();
    });
  });
  const up = new Promise<Omit<Started, 'stop'>>((resolve, reject) => {
    let personal: Started['personal'] | null = null;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      personal ??= demoPersonal(output);
      const url = /"msg":"Peeks Wallet is up"/.test(output) ? /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1] : undefined;
      if (url && personal) resolve({ url: url.replace('localhost', '127.0.0.1'), personal });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      reject(new Error(`npm start ended before it was up:\n${output.slice(-4000)}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  try {
    return { ...(await up), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The personal demo account from the lines `npm start` prints on an empty database. */
function demoPersonal(output: string): Started['personal'] | null {
  const line = /^\s*personal user\s+(\S+)\s+(\S+)/m.exec(output);
  return line?.[1] && line[2] ? { username: line[1], password: line[2] } : null;
}

/**
 * Signs in as the web app does (session, then login with its CSRF token),
 * accepts the agreements a first sign-in asks for, as the user would once,
 * so that the dashboard measured is the one every later visit opens, and
 * gives the session's cookie.
 */
async function signIn(base: string, account: Started['personal']): Promise<string> {
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((each) => each.split(';')[0] ?? '')
      .join('; ');
  const session = await fetch(`${base}/api/session`);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: cookieOf(session) },
    body: JSON.stringify(account),
  });
  if (login.status !== 200) throw new Error(`signing the demo user in answered ${login.status}: ${await login.text()}`);
  const cookie = cookieOf(login);
  const signedIn = (await login.json()) as { csrfToken: string };
  const post = async (route: string, body: object) => {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': signedIn.csrfToken, cookie },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<{ agreements?: { agreement_id: number }[] }>;
  };
  const { agreements = [] } = await post('/api/agreement/agreement-list', { valid_only: true, agreed_to: false });
  for (const { agreement_id } of agreements)
    await post('/api/agreement/update-agreement', { agreement_id, agreed_to: true });
  return cookie;
}

/** The report goes to standard output, a line at a time. */
const say = (line: string) => process.stdout.write(`${line}\n`);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const score = (result: RunnerResult, category: string) =>
  Math.round((result.lhr.categories[category]?.score ?? 0) * 100);
const metric = (result: RunnerResult, audit: string) => result.lhr.audits[audit]?.numericValue ?? Number.NaN;
const shown = (audit: string, value: number) =>
  audit === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`;

/** The failed audits of a category, so a score under 100 says why. */
function misses(result: RunnerResult, category: string): string[] {
  return (result.lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => result.lhr.audits[ref.id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
    .map((audit) => `${audit?.id ?? ''} (${audit?.displayValue ?? audit?.score ?? ''})`);
}

/**
 * One Lighthouse run of `url`, tried again (twice at most) when the trace
 * itself failed, as Lighthouse asks; a page that ended elsewhere (a
 * dashboard that sent the browser to sign in) is an error, not a score.
 */
async function audit(url: string, flags: Flags): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const error = result.lhr.runtimeError;
    if (error && attempt < 3) {
      say(`    ${error.code}: trying again`);
      continue;
    }
    if (error) throw new Error(`${url}: ${error.message}`);
    if (result.lhr.finalDisplayedUrl !== url) throw new Error(`${url} ended at ${result.lhr.finalDisplayedUrl}`);
    return result;
  }
}

async function main(): Promise<void> {
  const config = readConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
  const server = await openDatabaseServer(
    { ...config, DATA_DIR: path.join(ROOT, '.data', 'lighthouse-db') },
    createLogger(config),
  );
  const scratch = await createScratchDatabase(server.url);
  const peeks = await startPeeks(scratch.url).catch(async (error: unknown) => {
    await scratch.drop();
    throw error;
  });
  try {
    await mkdir(REPORTS, { recursive: true });
    const cookie = await signIn(peeks.url, peeks.personal);
    const pages = [
      { name: 'sign-in', path: '/login', headers: {} },
      { name: 'dashboard', path: '/', headers: { Cookie: cookie } },
    ].filter((page) => ONLY?.includes(page.name) ?? true);
    say(`Lighthouse ${RUNS}x per page, mobile, simulated throttling, against npm start at ${peeks.url}`);
    for (const page of pages) {
      // A browser of its own per page: the sign-in page's guest cookie would otherwise stand beside the signed-in one.
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-sync'],
      });
      const results: RunnerResult[] = [];
      try {
        for (let run = 1; run <= RUNS; run++) {
          const flags: Flags = {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
            extraHeaders: page.headers,
          };
          const result = await audit(`${peeks.url}${page.path}`, flags);
          results.push(result);
          await writeFile(path.join(REPORTS, `${page.name}-${run}.json`), JSON.stringify(result.lhr));
          const scores = CATEGORIES.map((category) => `${category} ${score(result, category)}`).join(', ');
          const metrics = METRICS.map(([audit, label]) => `${label} ${shown(audit, metric(result, audit))}`).join(', ');
          // Lighthouse's own measure of the machine's speed: its simulated times scale what it saw, so a busy machine
          // (a low index) reads slower.
          const machine = `benchmark index ${Math.round(result.lhr.environment.benchmarkIndex)}, load ${loadavg()[0]?.toFixed(1) ?? '?'}`;
          say(`  ${page.path} run ${run}: ${scores}; ${metrics} (${machine})`);
          for (const category of CATEGORIES)
            if (score(result, category) < 100) say(`    ${category} misses: ${misses(result, category).join(', ')}`);
        }
      } finally {
        chrome.kill();
      }
      const scores = CATEGORIES.map(
        (category) => `${category} ${median(results.map((each) => score(each, category)))}`,
      );
      const metrics = METRICS.map(
        ([audit, label]) => `${label} ${shown(audit, median(results.map((each) => metric(each, audit))))}`,
      );
      say(`${page.path} median of ${RUNS}: ${scores.join(', ')}; ${metrics.join(', ')}`);
    }
  } finally {
    await peeks.stop();
    await scratch.drop();
    await server.stop();
  }
}

await main();
