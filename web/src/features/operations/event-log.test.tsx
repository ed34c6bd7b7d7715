import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi } from './testing.ts';

const event = (position: number, linkVerifies = true) => ({
  position,
  stream_id: `ledger-tx-${String(position)}`,
  stream_version: 1,
  type: position % 2 === 0 ? 'TransactionCompleted' : 'DepositCleared',
  data: { amount: position * 100 },
  metadata: { actor: 'user-1' },
  created_at: '2026-11-25T10:00:00.000Z',
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
        ? ok({ events: [event(60), event(59, false)], next_before: 59 })
        : ok({ events: [event(58)], next_before: null });
    },
  });
  return asked;
}

describe('/operations/events: the event log', () => {
  beforeEach(resetSession);

  it('lists events newest first with whether each link verifies, and its JSON with the hashes', async () => {
    eventsApi();
    const { user } = renderApp('/operations/events');
    const list = (await screen.findByText('#60')).closest('ol');
    if (!list) throw new Error('the events are a list');
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('summary')?.textContent)).toEqual([
      '#60 TransactionCompleted ledger-tx-60 link verifies',
      '#59 DepositCleared ledger-tx-59 link broken',
    ]);
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
    expect(await screen.findByText('#58')).toBeTruthy();
    expect(asked.at(-1)).toMatchObject({ stream: 'ledger-', type: 'DepositCleared', before: '59' });
    // The last page has no Older.
    expect(screen.queryByRole('button', { name: 'Older' })).toBeNull();
  });
});
