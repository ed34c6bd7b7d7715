import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';

const merchantInfo = {
  merchant_id: 5,
  name: 'Demo Coffee',
  dba: 'Demo Coffee Ltd',
  website: 'https://coffee.example.com',
  phone: '6135550100',
  phone_region: '+1',
  address: {
    address1: '1 Bank St',
    address2: null,
    city: 'Ottawa',
    province: 'ON',
    postal_code: 'K1P 1A1',
    country: 'CA',
  },
  support_url: 'https://coffee.example.com/help',
  support_phone: '6135550101',
  support_email: 'help@coffee.example.com',
  contact_name: 'Jean Roy',
  contact_email: 'jean@coffee.example.com',
  contact_phone: '6135550102',
  perms: [],
};

function profileApi(merchant: boolean, handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () =>
      ok({ user: sessionUser(merchant ? { merchant_id: 5, user_type: 'business' } : {}), csrfToken: 'csrf' }),
    'GET /api/user/merchant-lookup': () => ok({ merchantInfo }),
    'GET /api/user/address-list': () => ok({ address: [], total: 0 }),
    'GET /api/merchant-terminal/list': () => ok({ merchantTerminalList: [] }),
    'POST /api/user/get-user-prefs': () =>
      ok({ preferences: { notifications: { deposit: true, newsletter: false }, 'notify-methods': { email: true } } }),
    'GET /api/user/security-settings': () => ok({ pin_set: false, pin_locked_until: null, security_questions: [] }),
    ...handlers,
  });
}

describe('/profile (spec §2 Profile page)', () => {
  beforeEach(resetSession);

  it('has the spec tabs; Merchant and Merchant Terminal only for merchants', async () => {
    profileApi(true);
    const { unmount } = renderApp('/profile');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Profile',
      'Merchant',
      'Address',
      'Security',
      'Notifications',
      'Merchant Terminal',
      'Document Upload',
      'Agreements',
    ]);
    unmount();
    resetSession();
    profileApi(false);
    renderApp('/profile/personal');
    await waitFor(() => {
      expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
        'Profile',
        'Address',
        'Security',
        'Notifications',
        'Document Upload',
        'Agreements',
      ]);
    });
  });

  it('Address: "You have 0 Address" and the Address modal with Save Address', async () => {
    profileApi(false);
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Address' }));
    expect(await screen.findByText('You have 0 Address')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Address' }));
    const dialog = screen.getByRole('dialog', { name: 'Address' });
    expect(within(dialog).getByRole('button', { name: 'Save Address' })).toBeTruthy();
  });

  it('Merchant Terminal: "You have 0 Merchant" and Add Merchant; Merchant Details disables name and DBA', async () => {
    profileApi(true);
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Merchant Terminal' }));
    expect(await screen.findByText('You have 0 Merchant')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Merchant' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Merchant' }));
    expect(await screen.findByText('Merchant Setting')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Merchant Details' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').disabled).toBe(true);
    expect(within(dialog).getAllByText('For update contact to admin').length).toBeGreaterThan(0);
    expect(within(dialog).getByRole('button', { name: 'Save Merchant' })).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('button', { name: 'Close' })
        .map((button) => button.textContent),
    ).toContain('Close');
  });

  it('Notifications: toggles labelled by key flip at once and send the change', async () => {
    const api = profileApi(false, {
      'POST /api/user/user-config-update': () => ok({ preferences: { notifications: { newsletter: true } } }),
    });
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const toggle = await screen.findByRole('switch', { name: 'newsletter' });
    await user.click(toggle);
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await waitFor(() => {
      expect(api.sent('POST', '/api/user/user-config-update')[0]?.body).toEqual({
        user_id: 7,
        config: { newsletter: true },
      });
    });
  });

  it('Security: Change Password, Change Pin and Security Questions rows; the password modal says the spec texts', async () => {
    profileApi(false);
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(await screen.findByText('Security Questions')).toBeTruthy();
    expect(screen.getByText('Change Pin')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByText('Please enter Old password')).toBeTruthy();
  });
});
