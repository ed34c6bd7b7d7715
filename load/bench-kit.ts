import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The p-th percentile of latencies sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A scratch database on the bench server; dropped by `drop`. */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const database = `peeks_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`).catch(async (error: unknown) => {
    await admin.end();
    throw error;
  });
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}
