import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, refused, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi } from './testing.ts';

const step = (overrides: Record<string, unknown>) => ({
  serial: 'SER-CHILD',
  action: 'MINT',
  value: 1000,
  from_account: null,
  to_account: 'user-9',
  parent_serial: null,
  from_serial: 'SER-CHILD',
  tx_id: 'tx-1',
  event_position: 11,
  event_type: 'CoinsMinted',
  event_time: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const mintStep = step({ serial: 'SER-PARENT', from_serial: 'SER-PARENT', tx_id: 'tx-mint' });
const splitStep = step({
  action: 'SPLIT',
  value: 400,
  parent_serial: 'SER-PARENT',
  from_account: 'user-9',
  to_account: 'user-12',
  tx_id: 'tx-split',
  event_position: 25,
  event_type: 'CoinsSplit',
});
/** A child's trail runs back to its parent's mint; the parent's runs on into the children split from it. */
const trails: Record<string, unknown[]> = {
  'SER-CHILD': [mintStep, splitStep],
  'SER-PARENT': [
    mintStep,
    splitStep,
    step({
      serial: 'SER-OTHER',
      action: 'SPLIT',
      value: 600,
      parent_serial: 'SER-PARENT',
      event_position: 25,
      event_type: 'CoinsSplit',
      tx_id: 'tx-split',
    }),
  ],
};

function trailApi() {
  return consoleApi({
    'GET /api/operations/coin-trail': (_body, url) => {
      const serial = url.searchParams.get('serial') ?? '';
      const trail = trails[serial];
      return trail ? ok({ serial, trail }) : refused(404, [{ code: 40400, message: 'Not found' }]);
    },
  });
}

describe('/operations/coins: a coin serial back to its mint', () => {
  beforeEach(resetSession);

  it('searches a serial (one search form with its button) and shows its lineage, each step with its event, walkable to parents and children', async () => {
    const api = trailApi();
    const { user, router } = renderApp('/operations/coins');
    await user.type(await screen.findByLabelText('Serial'), '  SER-CHILD ');
    await user.click(screen.getByRole('button', { name: 'Trace' }));
    const lineage = (await screen.findByRole('heading', { name: 'Lineage of SER-CHILD' })).closest('section, div');
    if (!(lineage instanceof HTMLElement)) throw new Error('a lineage card expected');
    const steps = within(lineage).getAllByRole('listitem');
    expect(steps).toHaveLength(2);
    const [mint, split] = steps as [HTMLElement, HTMLElement];
    // Steps in words and coin amounts in units, never the ledger's action codes and minor units ("MINT 1000").
    expect(mint.textContent).toMatch(/^Minted 10\.00 Coins · CoinsMinted #11 · /);
    expect(split.textContent).toMatch(/^Split 4\.00 Coins · CoinsSplit #25 · /);
    expect(split.textContent).toMatch(/from user-9 · to user-12/);
    expect(within(split).getByText('Transaction tx-split')).toBeTruthy();
    expect(api.sent('GET', '/api/operations/coin-trail')).toHaveLength(1);
    expect(router.state.location.search).toBe('?serial=SER-CHILD');

    // The split names its parent: following it opens the parent's own trail.
    const parent = within(split).getByRole('link', { name: 'SER-PARENT' });
    expect(parent.getAttribute('href')).toBe('/operations/coins?serial=SER-PARENT');
    await user.click(parent);
    expect(await screen.findByRole('heading', { name: 'Lineage of SER-PARENT' })).toBeTruthy();
    expect(router.state.location.search).toBe('?serial=SER-PARENT');
    const children = screen.getAllByRole('listitem').filter((item) => item.classList.contains('coin-split'));
    expect(children.map((item) => within(item).getAllByRole('link')[0]?.textContent)).toEqual([
      'SER-CHILD',
      'SER-OTHER',
    ]);

    // From the parent, a child's serial leads back down to the child's trail.
    await user.click(within(children[0] as HTMLElement).getByRole('link', { name: 'SER-CHILD' }));
    expect(await screen.findByRole('heading', { name: 'Lineage of SER-CHILD' })).toBeTruthy();
    expect(api.sent('GET', '/api/operations/coin-trail')).toHaveLength(3);
  });

  it("shows the API's words for a serial it does not know", async () => {
    trailApi();
    renderApp('/operations/coins?serial=NOPE');
    expect(await screen.findByText(/^Could not load this: /)).toBeTruthy();
  });
});
