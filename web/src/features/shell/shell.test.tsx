import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, findToast, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { merchantInfo } from '../../testing/merchants.ts';

const signedIn = (overrides = {}) => {
  const user = sessionUser(overrides);
  return fakeApi({
    'GET /api/session': () => ok({ user, csrfToken: 'csrf-signed-in' }),
    'GET /api/user/merchant-lookup': () => ok({ merchantInfo: merchantInfo() }),
    'POST /api/logout': () => ok({}),
    'POST /api/merchant/switch-merchant': (body) =>
      ok({ user: { ...user, merchant_id: (body as { merchant_id: number }).merchant_id } }),
  });
};

describe('the shell (spec §2 Navigation)', () => {
  beforeEach(resetSession);

  it('logged out: the top bar offers Log In and Sign Up, and a signed-in route sends the guest to /login', async () => {
    fakeApi();
    const { router } = renderApp('/wallet');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    const bar = screen.getByRole('banner');
    expect(within(bar).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
    expect(within(bar).getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/register');
    // A guest is offered no account links: MY ACCOUNT and ADD FUNDS would only send them to /login.
    expect(within(bar).queryByRole('link', { name: 'MY ACCOUNT' })).toBeNull();
    expect(within(bar).queryByRole('link', { name: 'ADD FUNDS' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Menu' })).toBeNull();
    expect(
      within(bar)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Peeks Wallet', 'Log In', 'Sign Up']);
    expect(screen.getByRole('link', { name: 'Terms And Conditions' })).toBeTruthy();
  });

  it('logged in: the avatar menu holds username, e-mail, Wallet, Profile, Agreement, Webhook, the language, Sign Out; the layout its navigation and placeholders', async () => {
    signedIn();
    const { user } = renderApp('/');
    // Until its code is here, a stand-in button; a click on it opens the menu once it has come.
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    const menu = await screen.findByRole('menu');
    const menuButton = screen.getByRole('button', { name: /Account menu/ });
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(menu.getAttribute('aria-labelledby')).toBe(menuButton.id);
    expect(within(menu).getByText('anne@example.com')).toBeTruthy();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Wallet', '/wallet'],
      ['Profile', '/profile'],
      ['Agreement', '/agreement'],
      ['Webhook', '/webhook'],
      ['Sign Out', '/login/logout'],
    ]);
    // The language choice: one of three, each named in itself, the one in use checked.
    expect(
      within(within(menu).getByRole('group', { name: 'Language' }))
        .getAllByRole('menuitemradio')
        .map((each) => [each.textContent, each.getAttribute('lang'), each.getAttribute('aria-checked')]),
    ).toEqual([
      ['✓English', 'en', 'true'],
      ['日本語', 'ja', 'false'],
      ['मराठी', 'mr', 'false'],
    ]);
    await user.keyboard('{Escape}');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton);

    // The signed-in layout is a chunk of its own: it shows once loaded.
    const nav = await screen.findByRole('navigation', { name: 'Dashboard navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/'],
      ['Transactions', '/transaction'],
      ['Contacts', '/contacts'],
      ['Payment Methods', '/payment-method-list'],
      ['Fund Wallet', '/add-fund'],
      ['Edit Profile', '/profile'],
      ['Settings', '/setting'],
    ]);
    expect(within(nav).getByText('Support').getAttribute('aria-disabled')).toBe('true');
    // A person without a merchant role is offered no merchant entries (issue 36).
    expect(screen.queryByRole('navigation', { name: 'Merchant' })).toBeNull();
    expect(screen.queryByText('Merchant Dashboard')).toBeNull();
    expect(screen.getByText('Anne Tremblay')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Switch Merchant' })).toBeNull();
  });

  it('a merchant sees the merchant name and Switch Merchant; switching reloads the user and goes to /', async () => {
    const api = signedIn({
      user_type: 'business',
      merchant_id: 3,
      merchants: { '3': 'Demo Coffee', '4': 'Demo Books' },
    });
    const { user, router } = renderApp('/contacts');
    const switchButton = await screen.findByRole('button', { name: 'Switch Merchant' });
    // Someone acting for a merchant sees its entries (as placeholders without VIEW_SALES).
    expect(
      within(screen.getByRole('navigation', { name: 'Merchant' }))
        .getAllByText(/./)
        .map((each) => each.textContent),
    ).toEqual(['Merchant Dashboard', 'Transfers', 'Returns', 'Settlements', 'Reports']);
    await user.click(switchButton);
    // Its chunk comes when it is first opened.
    const dialog = await screen.findByRole('dialog', { name: 'Switch Merchant' });
    await user.click(within(dialog).getByLabelText('Demo Books'));
    await user.click(within(dialog).getByRole('button', { name: 'Switch' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(api.sent('POST', '/api/merchant/switch-merchant')[0]?.body).toEqual({ merchant_id: 4 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Sign Out calls logout, clears all local storage and shows the sign-in screen', async () => {
    const api = signedIn();
    localStorage.setItem('something.else', 'kept until logout');
    const { router } = renderApp('/login/logout');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login');
    });
    expect(api.sent('POST', '/api/logout')).toHaveLength(1);
    expect(localStorage.getItem('something.else')).toBeNull();
    expect(await findToast('You are signed out.')).toBeTruthy();
  });
});
