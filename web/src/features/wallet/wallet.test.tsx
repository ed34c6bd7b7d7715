import type { Balance } from '@peeks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeLiveSocket, fakeApi, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { pageWindow } from '../../ui/Paginator.tsx';

function balanceOf(
  con: { balance: number; available: number; withdrawable: number },
  cash: { currency: 'USD' | 'CAD'; balance: number } | null = null,
): Balance {
  const coinLine = {
    currency: 'CON' as const,
    balance: con.balance,
    available_balance: con.available,
    withdrawable_balance: con.withdrawable,
    combined: true,
  };
  const cashLines = cash
    ? [
        {
          currency: cash.currency,
          balance: cash.balance,
          available_balance: cash.balance,
          withdrawable_balance: cash.balance,
          combined: false,
        },
      ]
    : [];
  return {
    currency: 'CON',
    balance: con.balance,
    available_balance: con.available,
    withdrawable_balance: con.withdrawable,
    balances: [...cashLines, coinLine],
  };
}

const coins = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, index) => ({
    serial: `C-${String(offset + index).padStart(4, '0')}`,
    value: 100,
    currency: 'CON',
  }));

function signedInWith(balance: Balance, coinTotal = 0) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }),
    'GET /api/account/balance': () => ok({ balance }),
    'GET /api/wallet/list-coins': (_body, url) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return ok({ coins: coins(Math.max(0, Math.min(limit, coinTotal - offset)), offset), total: coinTotal });
    },
  });
}

describe('the wallet (spec §4 Wallet dashboard)', () => {
  beforeEach(resetSession);

  it('shows available, hold (available − withdrawable) and total tiles, and the per-currency table with the spec row labels, coins first', async () => {
    signedInWith(
      balanceOf({ balance: 125_050, available: 120_000, withdrawable: 100_000 }, { currency: 'CAD', balance: 4_200 }),
    );
    renderApp('/wallet');
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeTruthy();
    expect(screen.getByTestId('balance-available').textContent).toBe('1,200.00 Coins');
    expect(screen.getByTestId('balance-hold').textContent).toBe('200.00 Coins');
    expect(screen.getByTestId('balance-total').textContent).toBe('1,250.50 Coins');

    const table = screen.getByRole('table', { name: 'Balances by currency' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.firstChild?.textContent);
    expect(headers).toEqual(['Currency', 'Balance', 'Holds ?', 'Available']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Coin', '1,250.50 Coins', '200.00 Coins', '1,200.00 Coins'],
      ['Cash (CAD)', '$42.00 CAD', '$0.00 CAD', '$42.00 CAD'],
    ]);
    // A hold is on any money received, a transfer between people included: not only "tips".
    const help =
      'Holds are placed on newly received money for processing and review. After the hold time the amount becomes withdrawable.';
    // Said on focus (and hover) as a tooltip that describes the column's heading.
    act(() => table.querySelector<HTMLElement>('.help')?.focus());
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip.textContent).toBe(help);
    // The heading the tooltip's chunk rendered when it came, focused still.
    const holds = table.querySelector<HTMLElement>('.help');
    expect(document.activeElement).toBe(holds);
    expect(holds?.getAttribute('aria-describedby')).toBe(tooltip.id);
  });

  it('says when the next hold releases, and nothing of it with nothing on hold', async () => {
    const held = balanceOf({ balance: 50_000, available: 50_000, withdrawable: 20_000 });
    signedInWith({ ...held, next_hold_release_at: '2026-11-27T15:30:00.000Z' });
    const { unmount } = renderApp('/wallet');
    const tile = (await screen.findByTestId('balance-hold')).closest('.balance-breakdown-item');
    const expected = new Date('2026-11-27T15:30:00.000Z').toLocaleString('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(tile?.textContent).toContain(`Next release ${expected}`);
    unmount();
    resetSession();
    signedInWith({ ...balanceOf({ balance: 100, available: 100, withdrawable: 100 }), next_hold_release_at: null });
    renderApp('/wallet');
    const none = (await screen.findByTestId('balance-hold')).closest('.balance-breakdown-item');
    expect(none?.textContent).not.toContain('Next release');
  });

  it('shows coins bought by card in the hold, with when they can be withdrawn as cash', async () => {
    const held = balanceOf({ balance: 50_000, available: 50_000, withdrawable: 20_000 });
    const release = '2026-11-28T12:00:00.000Z';
    signedInWith({
      ...held,
      next_hold_release_at: release,
      card_funds_on_hold: 30_000,
      card_funds_release_at: release,
    });
    renderApp('/wallet');
    const note = await screen.findByTestId('balance-card-funds');
    const expected = new Date(release).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
    expect(note.textContent).toBe(`Coins bought by card, 300.00 Coins: withdrawable as cash from ${expected}`);
    expect(note.closest('.balance-breakdown-item')?.querySelector('[data-testid="balance-hold"]')?.textContent).toBe(
      '300.00 Coins',
    );
  });

  it('leads with one balance and one primary action: Add money to /add-fund, Send, Pay or scan and Withdraw', async () => {
    signedInWith(balanceOf({ balance: 125_050, available: 120_000, withdrawable: 100_000 }));
    renderApp('/wallet');
    const card = await screen.findByRole('region', { name: 'Your wallet' });
    // Available once, as the lead figure; the breakdown holds the rest, each once.
    expect(within(card).getAllByText(/1,200\.00/)).toHaveLength(1);
    expect(screen.getAllByTestId(/^balance-/).map((figure) => figure.dataset.testid)).toEqual([
      'balance-available',
      'balance-hold',
      'balance-withdrawable',
      'balance-total',
    ]);
    const actions = within(card).getByRole('group', { name: 'Wallet actions' });
    expect([...actions.querySelectorAll('a, button')].map((each) => each.textContent)).toEqual([
      'Add money',
      'Send',
      'Pay or scan',
      'Withdraw',
    ]);
    const primary = within(actions).getByRole('link', { name: 'Add money' });
    expect(primary.getAttribute('href')).toBe('/add-fund');
    expect(primary.className).toContain('primary');
    expect(actions.querySelectorAll('.primary')).toHaveLength(1);
    expect(within(actions).getByRole('link', { name: 'Pay or scan' }).getAttribute('href')).toBe('/scan-qr-code');
    expect(within(actions).getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(within(actions).getByRole('button', { name: 'Withdraw' })).toBeTruthy();
    // The spec's Trade tile opened Add Fund: it is "Buy coins" there now.
    const more = screen.getByRole('navigation', { name: 'More' });
    expect(
      within(more)
        .getByRole('link', { name: /^Buy coins/ })
        .getAttribute('href'),
    ).toBe('/add-fund');
  });

  it('at / shows who the card is for, and every shortcut the spec lists stays one click away', async () => {
    signedInWith(balanceOf({ balance: 5_000, available: 5_000, withdrawable: 5_000 }));
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Your wallet' });
    expect(within(card).getByText('Anne Tremblay')).toBeTruthy();
    expect(within(card).getByText('Ottawa, CA')).toBeTruthy();
    // Add Funds opens the deposit-method modal; Pay Now is Pay or scan.
    expect(within(card).getByRole('link', { name: 'Add money' }).getAttribute('href')).toBe('/?deposit=choose');
    expect(within(card).getByRole('link', { name: 'Pay or scan' }).getAttribute('href')).toBe('/scan-qr-code');
    // Transfer Funds and View Contacts were the same page: one entry. The rest as the spec has them.
    const more = screen.getByRole('navigation', { name: 'More' });
    expect(
      within(more)
        .getAllByRole('link')
        .map((link) => [link.querySelector('strong')?.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Contacts', '/contacts'],
      ['Transactions', '/transaction'],
      ['Create A Transaction', '/generate-qr-code'],
      ['Buy coins', '/add-fund'],
      ['My Account', '/profile/personal'],
    ]);
  });

  it('the coin balance opens the Coin Breakdown, 50 serials a page, and Escape closes it', async () => {
    const api = signedInWith(balanceOf({ balance: 12_000, available: 12_000, withdrawable: 12_000 }), 120);
    const { user } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Coin Breakdown of 120.00 Coins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Coin Breakdown' });
    expect(await within(dialog).findByText('C-0000')).toBeTruthy();
    expect(within(dialog).getAllByRole('row')).toHaveLength(51);
    expect(within(dialog).getByText(/^Coin serials held on .+: 120$/)).toBeTruthy();
    expect(within(dialog).getByText('Total balance: 120.00 Coins')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Page 3' }));
    expect(await within(dialog).findByText('C-0100')).toBeTruthy();
    expect(within(dialog).getAllByRole('row')).toHaveLength(21);
    expect(api.sent('GET', '/api/wallet/list-coins').map((call) => call.path)).toHaveLength(2);

    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  it('an open Coin Breakdown reads its page again when the live feed pushes a balance', async () => {
    const api = signedInWith(balanceOf({ balance: 12_000, available: 12_000, withdrawable: 12_000 }), 120);
    const { user } = renderApp('/wallet');
    await screen.findByText('Live');
    await user.click(await screen.findByRole('button', { name: 'Coin Breakdown of 120.00 Coins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Coin Breakdown' });
    expect(await within(dialog).findByText('C-0000')).toBeTruthy();
    expect(api.sent('GET', '/api/wallet/list-coins')).toHaveLength(1);
    FakeLiveSocket.push({
      type: 'balance',
      balance: balanceOf({ balance: 12_500, available: 12_500, withdrawable: 12_000 }),
    });
    await waitFor(() => {
      expect(api.sent('GET', '/api/wallet/list-coins')).toHaveLength(2);
    });
    expect(within(dialog).getByText('C-0000')).toBeTruthy();
  });

  it("an empty coin wallet's breakdown says 'No coin breakdowns'", async () => {
    signedInWith(balanceOf({ balance: 0, available: 0, withdrawable: 0 }));
    const { user } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Coin Breakdown of 0.00 Coins' }));
    expect(await within(screen.getByRole('dialog')).findByText('No coin breakdowns')).toBeTruthy();
  });

  it('a balance pushed over the live feed replaces the figures without a reload', async () => {
    signedInWith(balanceOf({ balance: 1_000, available: 1_000, withdrawable: 1_000 }));
    renderApp('/wallet');
    await screen.findByText('Live');
    expect(screen.getByTestId('balance-total').textContent).toBe('10.00 Coins');
    FakeLiveSocket.push({
      type: 'balance',
      balance: balanceOf({ balance: 3_500, available: 3_500, withdrawable: 1_000 }),
    });
    await waitFor(() => {
      expect(screen.getByTestId('balance-total').textContent).toBe('35.00 Coins');
    });
    expect(screen.getByTestId('balance-hold').textContent).toBe('25.00 Coins');
  });

  it('a balance that cannot be loaded says so and offers to try again', async () => {
    const api = fakeApi({ 'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }) });
    const { user } = renderApp('/wallet');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Your balance could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => {
      expect(api.sent('GET', '/api/account/balance')).toHaveLength(2);
    });
  });
});

describe('the paginator window (spec §9: up to 5 page numbers)', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 9, [1, 2, 3, 4, 5]],
    [5, 9, [3, 4, 5, 6, 7]],
    [9, 9, [5, 6, 7, 8, 9]],
  ])('page %i of %i offers %j', (page, pages, expected) => {
    expect(pageWindow(page, pages)).toEqual(expected);
  });
});
