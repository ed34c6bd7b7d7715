import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi } from './testing.ts';
import { formatDateTime } from '../../lib/dates.ts';

const event = (position: number, linkVerifies = true) => ({
  position,
  stream_id: `ledger-tx-${String(position)}`,
  stream_version: 1,
  type: position % 2 === 0 ? 'TransactionCompleted' : 'DepositCleared',
  data: { amount: position * 100 },
  metadata: { actor: 'user-1' },
  created_at: new Date(Date.UTC(2026, 10, 25, 10, position)).toISOString(),
  hash: `hash-${String(position)}`,
  prev_hash: `hash-${String(position - 1)}`,
  link_verifies: linkVerifies,
});

/** The event log's answers; `asked` keeps each request's query, as the server read it. */
function eventsApi() {
  const asked: Record<string, string>[] = [];
  consoleApi({
    'GET /api/operations/events': (_body, url) => {
      asked.push(Object.fromEntries(url.searchParams));
      const before = url.searchParams.get('before');
      return before === null
        ? ok({ events: [event(60), event(57, false)], next_before: 57 })
        : ok({ events: [event(56)], next_before: null });
    },
  });
  return asked;
}

describe('/operations/events: the event log', () => {
  beforeEach(resetSession);

  it('lists events newest first with their time, whether each link verifies, and its JSON with the hashes', async () => {
    eventsApi();
    const { user } = renderApp('/operations/events');
    const list = (await screen.findByText('#60')).closest('ol');
    if (!list) throw new Error('the events are a list');
    const rows = within(list).getAllByRole('listitem');
    const local = (iso: string) => formatDateTime(iso);
    expect(rows.map((row) => row.querySelector('summary')?.textContent ?? row.textContent)).toEqual([
      `#60 ${local(event(60).created_at)} TransactionCompleted ledger-tx-60 link verifies`,
      // The jump from 60 to 57 is named, and the page says why positions skip.
      'Positions 58 to 59 skipped',
      `#57 ${local(event(57).created_at)} DepositCleared ledger-tx-57 link broken`,
    ]);
    expect(rows[0]?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-25T11:00:00.000Z');
    expect(screen.getByText('Positions skip after a restart; the hash chain links each stream.')).toBeTruthy();
    const [newest] = rows as [HTMLElement];
    await user.click(within(newest).getByText('TransactionCompleted'));
    const json = JSON.parse(newest.querySelector('pre')?.textContent ?? '{}') as Record<string, unknown>;
    expect(json).toMatchObject({ position: 60, hash: 'hash-60', prev_hash: 'hash-59', link_verifies: true });
  });

  it("filters by stream prefix, type and time, and pages to older events with the keyset 'before'", async () => {
    const asked = eventsApi();
    const { user } = renderApp('/operations/events');
    await screen.findByText('#60');
    await user.type(screen.getByLabelText('Stream prefix'), 'ledger-');
    await user.type(screen.getByLabelText('Type'), 'DepositCleared');
    await user.type(screen.getByLabelText('From'), '2026-11-01T00:00');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => {
      expect(asked).toHaveLength(2);
    });
    expect(asked[1]).toEqual({
      stream: 'ledger-',
      type: 'DepositCleared',
      from: new Date('2026-11-01T00:00').toISOString(),
      limit: '50',
    });

    await user.click(await screen.findByRole('button', { name: 'Older' }));
    expect(await screen.findByText('#56')).toBeTruthy();
    expect(asked.at(-1)).toMatchObject({ stream: 'ledger-', type: 'DepositCleared', before: '57' });
    // A filtered page leaves positions out by design: no gap is named.
    expect(screen.queryByText(/skipped$/)).toBeNull();
    // The last page has no Older.
    expect(screen.queryByRole('button', { name: 'Older' })).toBeNull();
  });
});
