import type { LedgerVerification } from '@peeks/contracts';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, renderApp, resetSession } from '../../testing/app.tsx';
import { holdsByCurrency, volumeRows } from './OverviewPage.tsx';
import { consoleApi } from './testing.ts';

const today = new Date().toISOString().slice(0, 10);

const overview = {
  days: 30,
  daily_volume: [
    { day: today, type: 'deposit', currency: 'CON', count: 3, amount: 150_00 },
    { day: today, type: 'transfer', currency: 'CON', count: 2, amount: 40_00 },
  ],
  deposits_by_state: [
    { method: 'interac', state: 'pending', count: 1 },
    { method: 'bitcoin', state: 'completed', count: 4 },
  ],
  holds_releasing: [],
  webhook_deliveries: [],
};

const run = (overrides: Partial<LedgerVerification>): LedgerVerification => ({
  state: 'finished',
  started_at: '2026-11-25T10:00:00.000Z',
  finished_at: '2026-11-25T10:00:02.500Z',
  ok: true,
  report: null,
  progress: { stage: 'invariants', events_replayed: 40, events_total: 40 },
  ...overrides,
});

function overviewApi(verification: () => LedgerVerification, handlers: Parameters<typeof consoleApi>[0] = {}) {
  return consoleApi({
    'GET /api/operations/overview': () => ok(overview),
    'GET /api/operations/platform-balances': () =>
      ok({
        balances: [
          { account_id: 'platform:fees:CAD', currency: 'CAD', balance: 1_234_56, entries: 12 },
          { account_id: 'platform:card-funding:CON', currency: 'CON', balance: -500_00, entries: 7 },
        ],
        as_of: '2026-11-25T11:00:00.000Z',
      }),
    'GET /api/operations/ledger-verify': () => ok({ verification: verification() }),
    ...handlers,
  });
}

describe('/operations: the overview', () => {
  beforeEach(resetSession);

  it('shows the platform balances with when they were caught up, and the charts from the history', async () => {
    overviewApi(() => run({}));
    renderApp('/operations');
    // Each account by its name from the dictionary, its figure in its own currency beside it.
    expect((await screen.findByText('Fees')).parentElement?.textContent).toBe('Fees+$1,234.56 CAD');
    expect(screen.getByText('Card funding').parentElement?.textContent).toBe('Card funding−500.00 Coins');
    expect(screen.getByText(/^Caught up at /)).toBeTruthy();
    expect(
      await screen.findByRole('figure', { name: 'Daily volume by movement type (last 30 days, count)' }),
    ).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Deposits by state' })).toBeTruthy();
    // No holds and no webhooks in this history: the empty states stand in for those charts.
    expect(screen.getByText('No holds release in the next 24 hours')).toBeTruthy();
    expect(screen.getByText('No webhook deliveries in the last 30 days')).toBeTruthy();
    expect(screen.queryByRole('figure', { name: 'Holds releasing in the next 24 hours' })).toBeNull();
    expect(screen.getByText(/^Passed: started .*, took 2\.5 s$/)).toBeTruthy();
  });

  it('draws holds releasing as one chart per currency, never coins and dollars on one axis', async () => {
    overviewApi(() => run({}), {
      'GET /api/operations/overview': () =>
        ok({
          ...overview,
          holds_releasing: [
            { hour: '2026-11-25T12:00:00.000Z', currency: 'CON', count: 2, amount: 1_525_00 },
            { hour: '2026-11-25T12:00:00.000Z', currency: 'USD', count: 1, amount: 38_50 },
          ],
        }),
    });
    renderApp('/operations');
    expect(await screen.findByRole('figure', { name: 'Coins releasing, by hour' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'USD releasing, by hour' })).toBeTruthy();
    expect(screen.queryByText('No holds release in the next 24 hours')).toBeNull();
  });

  it('runs the verification: live progress, then the report when it fails', async () => {
    let polled = 0;
    const api = overviewApi(
      () => {
        polled += 1;
        return polled === 1
          ? run({ state: 'never run', started_at: null, finished_at: null, ok: null, progress: null })
          : run({ ok: false, report: 'chain wallet-user-9: event 17 does not link to 16' });
      },
      {
        'POST /api/operations/ledger-verify': () =>
          ok({
            started: true,
            verification: run({
              state: 'running',
              finished_at: null,
              ok: null,
              progress: { stage: 'replay', events_replayed: 10, events_total: 40 },
            }),
          }),
      },
    );
    const { user } = renderApp('/operations');
    expect(await screen.findByText('Not run since the server started')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const status = await screen.findByText('Running: replay, 10 of 40 events replayed');
    const region = status.closest('[role="status"]');
    if (!(region instanceof HTMLElement)) throw new Error('the progress is in a status region');
    expect(region.querySelector('progress')?.value).toBe(10);
    expect(api.sent('POST', '/api/operations/ledger-verify')).toHaveLength(1);
    expect(await screen.findByText(/^Failed: started /, undefined, { timeout: 3000 })).toBeTruthy();
    expect(within(region).getByText('chain wallet-user-9: event 17 does not link to 16')).toBeTruthy();
    expect(region.querySelector('progress')).toBeNull();
  });
});

describe('volumeRows: the daily volume chart’s shape', () => {
  it('has one row per day ending today, a count per movement type, zero on quiet days', () => {
    const { types, rows } = volumeRows(
      {
        days: 3,
        daily_volume: [
          { day: '2026-11-23', type: 'transfer', currency: 'CON', count: 2, amount: 1 },
          { day: '2026-11-25', type: 'deposit', currency: 'CON', count: 1, amount: 1 },
          { day: '2026-11-25', type: 'deposit', currency: 'CAD', count: 4, amount: 1 },
        ],
      },
      new Date('2026-11-25T18:00:00Z'),
    );
    expect(types).toEqual(['deposit', 'transfer']);
    expect(rows).toEqual([
      { day: '11-23', deposit: 0, transfer: 2 },
      { day: '11-24', deposit: 0, transfer: 0 },
      { day: '11-25', deposit: 5, transfer: 0 },
    ]);
  });
});

describe('holdsByCurrency: the holds charts’ shape', () => {
  it('splits the hours by currency, one series each, amounts left in minor units of that currency', () => {
    expect(
      holdsByCurrency([
        { hour: '2026-11-25T12:00:00.000Z', currency: 'USD', count: 1, amount: 38_50 },
        { hour: '2026-11-25T12:00:00.000Z', currency: 'CON', count: 2, amount: 1_525_00 },
        { hour: '2026-11-25T13:00:00.000Z', currency: 'CON', count: 1, amount: 5_00 },
      ]),
    ).toEqual([
      {
        currency: 'CON',
        rows: [
          { hour: '12:00', amount: 1_525_00 },
          { hour: '13:00', amount: 5_00 },
        ],
      },
      { currency: 'USD', rows: [{ hour: '12:00', amount: 38_50 }] },
    ]);
  });
});
