import type { Contact } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, held, ok, refused, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';
import { contact } from '../../testing/contacts.ts';
import { storedCard } from '../../testing/payment-methods.ts';
import { transactionView } from '../../testing/transactions.ts';

const marie = contact();
/** Saved, but without an account: Send Funds cannot pay her. */
const lea = contact({
  contact_id: 2,
  guser_id: null,
  user_id: null,
  username: null,
  name_first: 'Léa',
  name_last: 'Roy',
});

const visa = storedCard({ type_specific: {} });

const balance = {
  currency: 'CON',
  balance: 10_000,
  available_balance: 10_000,
  withdrawable_balance: 10_000,
  balances: [],
};

const sentTransaction = (amount: number) => transactionView({ amount });

function sendApi(handlers: Record<string, Handler> = {}, contacts: Contact[] = [marie, lea]) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'GET /api/account/balance': () => ok({ balance }),
    'GET /api/user/contact-list': () => ok({ contacts, total: contacts.length }),
    'POST /api/account/pay-method': () => ok({ methods: [visa], total: 1 }),
    'POST /api/account/send-fund': (body) => ok({ transaction: sentTransaction((body as { amount: number }).amount) }),
    ...handlers,
  });
}

async function openFromWallet() {
  const view = renderApp('/wallet');
  await view.user.click(await screen.findByRole('button', { name: 'Send' }));
  const dialog = await screen.findByRole('dialog', { name: 'Sending Funds' });
  await within(dialog).findByLabelText('Recipient');
  return { ...view, dialog };
}

describe('the Send Funds dialog (spec §2 Sending Funds)', () => {
  beforeEach(() => {
    resetSession();
    // The balance read starts afresh with the query cache, which testing/setup.ts clears.
  });

  it('offers the contacts with an account, shows the recipient card, and the wallet or a stored card as source', async () => {
    sendApi();
    const { user, dialog } = await openFromWallet();
    const recipients = within(dialog).getByLabelText('Recipient');
    expect(
      within(recipients)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['--Choose a Recipient--', 'Marie Gagnon']);
    await user.selectOptions(recipients, 'Marie Gagnon');
    const card = within(dialog).getByRole('region', { name: 'Recipient' });
    expect(
      within(card)
        .getAllByRole('definition')
        .map((each) => each.textContent),
    ).toEqual(['Marie Gagnon', 'Ottawa', 'Canada', '12']);
    for (const term of ['Name', 'City', 'Country', 'Account number']) expect(within(card).getByText(term)).toBeTruthy();
    const source = within(dialog).getByLabelText('Pay from');
    await waitFor(() => {
      expect(
        within(source)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Wallet balance (100.00 Coins available)', 'visa ************4242']);
    });
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(within(dialog).getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  });

  it('sends nothing while the amount is empty or, from the wallet, above the balance', async () => {
    const api = sendApi();
    const { user, dialog } = await openFromWallet();
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Please select Recipient')).toBeTruthy();
    expect(within(dialog).getByText('Please enter amount')).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Recipient'), 'Marie Gagnon');
    await user.type(within(dialog).getByLabelText('Amount (Coins)'), '100.01');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const error = within(dialog).getByText('Insufficient funds');
    expect(error.getAttribute('role')).toBe('alert');
    expect(api.sent('POST', '/api/account/send-fund')).toHaveLength(0);
  });

  it('sends once with an Idempotency-Key, says so in a toast and closes', async () => {
    const answer = held();
    const api = sendApi({ 'POST /api/account/send-fund': () => answer.answer });
    const { user, dialog } = await openFromWallet();
    await user.selectOptions(within(dialog).getByLabelText('Recipient'), 'Marie Gagnon');
    await user.type(within(dialog).getByLabelText('Amount (Coins)'), '12.5');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Send' }));
    expect(api.sent('POST', '/api/account/send-fund')).toHaveLength(1);
    const [call] = api.sent('POST', '/api/account/send-fund');
    expect(call?.body).toEqual({ guser_id: marie.guser_id, amount: 1250, currency: 'CON' });
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    answer.release(ok({ transaction: sentTransaction(1250) }));
    expect(await screen.findByText('Transfer Completed: 12.50 Coins sent to Marie Gagnon.')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Sending Funds' })).toBeNull();
    });
  });

  it('pays with a stored card when chosen, above the wallet balance too', async () => {
    const api = sendApi();
    const { user, dialog } = await openFromWallet();
    await user.selectOptions(within(dialog).getByLabelText('Recipient'), 'Marie Gagnon');
    await waitFor(() => {
      expect(within(within(dialog).getByLabelText('Pay from')).getAllByRole('option')).toHaveLength(2);
    });
    await user.selectOptions(within(dialog).getByLabelText('Pay from'), 'visa ************4242');
    await user.type(within(dialog).getByLabelText('Amount (Coins)'), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/account/send-fund')[0]?.body).toEqual({
        guser_id: marie.guser_id,
        amount: 15_000,
        currency: 'CON',
        paymentMethodId: 11,
      });
    });
  });

  it('announces a refusal and keeps the same key for a retry after a lost answer', async () => {
    let calls = 0;
    const api = sendApi({
      'POST /api/account/send-fund': () => {
        calls += 1;
        return calls === 1
          ? refused(503, [{ code: 50300, message: 'Service Unavailable' }])
          : refused(422, [{ code: 42201, message: 'Insufficient funds' }]);
      },
    });
    const { user, dialog } = await openFromWallet();
    await user.selectOptions(within(dialog).getByLabelText('Recipient'), 'Marie Gagnon');
    await user.type(within(dialog).getByLabelText('Amount (Coins)'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => {
      expect(
        within(dialog)
          .getAllByRole('alert')
          .some((each) => each.textContent !== ''),
      ).toBe(true);
    });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Insufficient funds')).toBeTruthy();
    const keys = api.sent('POST', '/api/account/send-fund').map((call) => call.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(screen.getByRole('dialog', { name: 'Sending Funds' })).toBeTruthy();
  });

  it('with no contact who has an account, offers Add A Recipient', async () => {
    sendApi({}, [lea]);
    const { user } = renderApp('/wallet');
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sending Funds' });
    expect(await within(dialog).findByText('None of your contacts has a Peeks Wallet account yet.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Add A Recipient' }).getAttribute('href')).toBe('/add-recipient');
  });

  it('opens from a contact, that contact as the recipient', async () => {
    sendApi();
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Marie Gagnon' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Marie Gagnon' })).getByRole('button', { name: 'Send Funds' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sending Funds' });
    expect(within(dialog).queryByLabelText('Recipient')).toBeNull();
    expect(await within(dialog).findByText('Account number')).toBeTruthy();
    expect(within(dialog).getByText('Marie Gagnon')).toBeTruthy();
  });

  it('offers no Send Funds for a contact without an account', async () => {
    sendApi();
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Léa Roy' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Léa Roy' })).queryByRole('button', { name: 'Send Funds' }),
    ).toBeNull();
  });
});
