import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const RECIPIENT = {
  'First Name': 'Luc',
  'Last Name': 'Tremblay',
  'Phone Number': '6135550123',
  Email: 'luc@example.com',
  'Confirm Email': 'luc@example.com',
  'Address Line 1': '12 Sparks Street',
  'Province/State': 'on',
  City: 'Ottawa',
  'Postal/Zip Code': 'K1P 5B9',
  'Bank Name': 'Banque Laurentienne',
  'Institution Number': '039',
  'Account Number': '1234567',
};

const saved = {
  contact_id: 9,
  guser_id: null,
  user_id: null,
  username: null,
  fullname: null,
  avatar: null,
  currency: null,
  name_first: 'Luc',
  name_last: 'Tremblay',
  phone: '+16135550123',
  phone_region: '+1',
  email: 'luc@example.com',
  address1: '12 Sparks Street',
  address2: null,
  city: 'Ottawa',
  province: 'ON',
  country: 'CA',
  postal: 'K1P 5B9',
  bank_name: 'Banque Laurentienne',
  account_no: '1234567',
};

function recipientApi(answer = () => ok({ contact: saved })) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'GET /api/account/balance': () =>
      ok({ balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] } }),
    'POST /api/user/recipient-create': answer,
  });
}

describe('/add-recipient (spec §2 Add A Recipient, §5 Banking)', () => {
  beforeEach(resetSession);

  it('has the contact sections, a banking section, and SAVE AND PROCEED; the banking rules speak in their words', async () => {
    const api = recipientApi();
    const { user } = renderApp('/add-recipient');
    expect(await screen.findByRole('heading', { level: 1, name: 'Add A Recipient' })).toBeTruthy();
    for (const legend of ['Recipient Contact Information', 'Recipient Residence Information', 'Banking Details'])
      expect(screen.getByRole('group', { name: legend })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'SAVE AND PROCEED' }));
    expect(await screen.findByText('Please enter Bank Name')).toBeTruthy();
    expect(screen.getByText('Please enter Institution Number')).toBeTruthy();
    expect(screen.getByText('Please enter Account Number')).toBeTruthy();
    await user.type(screen.getByLabelText('Account Number'), '1234567890123456');
    await user.tab();
    expect(await screen.findByText('Please enter at most 15 characters Account Number')).toBeTruthy();
    expect(api.sent('POST', '/api/user/recipient-create')).toHaveLength(0);
  });

  it('saves the recipient with the banking details, says so, and goes to /wallet after 2 seconds', async () => {
    const api = recipientApi();
    const { user, router } = renderApp('/add-recipient');
    await screen.findByRole('heading', { level: 1, name: 'Add A Recipient' });
    for (const [label, value] of Object.entries(RECIPIENT)) await user.type(screen.getByLabelText(label), value);
    await user.selectOptions(screen.getByLabelText('Country'), 'CA');
    await user.click(screen.getByRole('button', { name: 'SAVE AND PROCEED' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/user/recipient-create')[0]?.body).toMatchObject({
        name_first: 'Luc',
        email: 'luc@example.com',
        bank_name: 'Banque Laurentienne',
        institution_no: '039',
        account_no: '1234567',
      });
    });
    const status = await screen.findAllByText('Recipient saved. Taking you to your wallet…');
    expect(status.length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/add-recipient');
    await waitFor(
      () => {
        expect(router.state.location.pathname).toBe('/wallet');
      },
      { timeout: 3500 },
    );
  });

  it('keeps the form and lists a refusal', async () => {
    recipientApi(() => refused(409, [{ code: 23201, field: 'email', message: 'Sorry, This Contact Already Exist' }]));
    const { user } = renderApp('/add-recipient');
    await screen.findByRole('heading', { level: 1, name: 'Add A Recipient' });
    for (const [label, value] of Object.entries(RECIPIENT)) await user.type(screen.getByLabelText(label), value);
    await user.selectOptions(screen.getByLabelText('Country'), 'CA');
    await user.click(screen.getByRole('button', { name: 'SAVE AND PROCEED' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.some((alert) => within(alert).queryByText(/Already Exist/) !== null)).toBe(true);
    expect(screen.getByRole('button', { name: 'SAVE AND PROCEED' })).toBeTruthy();
  });
});
