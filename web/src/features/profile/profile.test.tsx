import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  fakeApi,
  findToast,
  ok,
  refused,
  renderApp,
  resetSession,
  sessionUser,
  type Handler,
} from '../../testing/app.tsx';

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
  support_phone_region: '+1',
  support_email: 'help@coffee.example.com',
  contact_name: 'Jean Roy',
  contact_email: 'jean@coffee.example.com',
  contact_phone: '6135550102',
  contact_phone_region: '+1',
  perms: [],
};

function profileApi(merchant: boolean, handlers: Record<string, Handler> = {}, shop: object = merchantInfo) {
  return fakeApi({
    'GET /api/session': () =>
      ok({ user: sessionUser(merchant ? { merchant_id: 5, user_type: 'business' } : {}), csrfToken: 'csrf' }),
    'GET /api/user/merchant-lookup': () => ok({ merchantInfo: shop }),
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

  it('Merchant Details keeps the saved dialling codes of the support and contact phones, and shows them dialled', async () => {
    const abroad = {
      ...merchantInfo,
      address: { ...merchantInfo.address, address2: 'Suite 200' },
      support_phone: '2079460958',
      support_phone_region: '+44',
      contact_phone: '9820012345',
      contact_phone_region: '+91',
    };
    const api = profileApi(
      true,
      {
        'POST /api/merchant/update-merchant': () =>
          ok({ merchantInfo: abroad, message: 'Merchant Details Updated successfully.' }),
      },
      abroad,
    );
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Merchant' }));
    expect(await screen.findByText('+44 207 946 0958')).toBeTruthy();
    expect(screen.getByText('+91 982 001 2345')).toBeTruthy();
    expect(screen.getByText('+1 613 555 0100')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Merchant Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Merchant' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/merchant/update-merchant')).toHaveLength(1);
    });
    expect(api.sent('POST', '/api/merchant/update-merchant')[0]?.body).toMatchObject({
      support_phone: '2079460958',
      support_phone_region: '+44',
      contact_phone: '9820012345',
      contact_phone_region: '+91',
    });
  });

  it('Notifications: toggles named in words flip at once and send the change', async () => {
    const api = profileApi(false, {
      'POST /api/user/user-config-update': () => ok({ preferences: { notifications: { newsletter: true } } }),
    });
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const toggle = await screen.findByRole('switch', { name: 'News and offers' });
    expect(screen.getAllByRole('switch').map((each) => each.closest('.toggle')?.textContent)).toEqual([
      'Deposits',
      'Withdrawals',
      'Money you send',
      'Money you receive',
      'Purchases',
      'Sign-ins to your account',
      'News and offers',
      'E-mail',
      'Text message (SMS)',
      'Push notifications',
    ]);
    expect(screen.queryByText(/send-fund|receive-fund/)).toBeNull();
    await user.click(toggle);
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await waitFor(() => {
      expect(api.sent('POST', '/api/user/user-config-update')[0]?.body).toEqual({
        user_id: 7,
        config: { newsletter: true },
      });
    });
  });

  it('Notifications: a refused change flips back and says why', async () => {
    profileApi(false, {
      'POST /api/user/user-config-update': () => refused(400, [{ code: 4001, message: 'Invalid argument(s)' }]),
    });
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('tab', { name: 'Notifications' }));
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: 'Deposits' });
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    await waitFor(() => {
      expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Deposits' }).checked).toBe(true);
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('Profile: the facts as a described list, the phone as dialled, each Update link naming its fact', async () => {
    profileApi(false, {
      'GET /api/session': () =>
        ok({ user: sessionUser({ phone: '2079460958', phone_region: '+44' }), csrfToken: 'csrf' }),
    });
    const { user } = renderApp('/profile');
    expect(await screen.findByText('+44 207 946 0958')).toBeTruthy();
    expect(screen.getByText('Phone').tagName).toBe('DT');
    await user.click(screen.getByRole('button', { name: 'Update: Phone' }));
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeTruthy();
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

  it('the edit pencil shows only with UPDATE USER; User Details checks the spec rules and Save User saves', async () => {
    const none = profileApi(false, {
      'GET /api/session': () => ok({ user: sessionUser({ perms: [] }), csrfToken: 'csrf' }),
    });
    const first = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Anne Tremblay' });
    expect(screen.queryByRole('button', { name: 'Edit profile' })).toBeNull();
    expect(none.sent('POST', '/api/user/update-user')).toHaveLength(0);
    first.unmount();

    let sessions = 0;
    const api = profileApi(false, {
      'GET /api/session': () => {
        sessions += 1;
        return ok({ user: sessionUser(sessions > 1 ? { name_first: 'Annie' } : {}), csrfToken: 'csrf' });
      },
      'POST /api/user/update-user': (body) =>
        ok({ user: sessionUser({ ...(body as object) }), message: 'Profile Updated successfully.' }),
    });
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('First Name').value).toBe('Anne');
    await user.clear(within(dialog).getByLabelText('Phone'));
    await user.type(within(dialog).getByLabelText('Phone'), '61355');
    await user.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await within(dialog).findByText('Please enter 10 digit Phone Number')).toBeTruthy();
    expect(api.sent('POST', '/api/user/update-user')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Phone'), '50123');
    await user.clear(within(dialog).getByLabelText('First Name'));
    await user.type(within(dialog).getByLabelText('First Name'), 'Annie');
    await user.click(within(dialog).getByRole('button', { name: 'Save User' }));
    expect(await findToast('Profile Updated successfully.')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'User Details' })).toBeNull();
    });
    expect(api.sent('POST', '/api/user/update-user')[0]?.body).toMatchObject({
      user_id: 7,
      name_first: 'Annie',
      name_last: 'Tremblay',
      phone: '6135550123',
      phone_region: '+1',
      country: 'CA',
    });
    expect(sessions).toBeGreaterThan(1);
  });

  it('the avatar takes a .jpg or .jpeg only, previews it, and Save Photo uploads it and reloads the user', async () => {
    const api = profileApi(false, {
      'POST /api/user/user-upload-avatar': () =>
        ok({ avatar: '/api/user/avatar/7/abc', user: sessionUser(), message: 'Avatar Updated successfully.' }),
    });
    const { user } = renderApp('/profile');
    const picker = await screen.findByLabelText('Change photo (.jpg or .jpeg)');
    // The picker's accept list hides a PNG; one forced in anyway is still refused, in the server's words.
    const png = new File(['png'], 'me.png', { type: 'image/png' });
    fireEvent.change(picker, { target: { files: Object.assign([png], { item: (index: number) => [png][index] }) } });
    expect(await screen.findByText('Please select a .jpg or .jpeg image')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Photo' })).toBeNull();

    await user.upload(picker, new File(['jpeg'], 'me.JPG', { type: 'image/jpeg' }));
    expect(await screen.findByRole('img', { name: 'Preview of your new photo' })).toBeTruthy();
    expect(api.sent('POST', '/api/user/user-upload-avatar')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Save Photo' }));
    expect(await findToast('Avatar Updated successfully.')).toBeTruthy();
    expect(api.sent('POST', '/api/user/user-upload-avatar')).toHaveLength(1);
    await waitFor(() => {
      expect(screen.queryByRole('img', { name: 'Preview of your new photo' })).toBeNull();
    });
  });
});
