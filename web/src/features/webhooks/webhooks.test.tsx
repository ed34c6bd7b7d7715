import type { Webhook, WebhookDelivery } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
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

const hook = (overrides: Partial<Webhook> = {}): Webhook => ({
  webhook_id: 3,
  merchant_id: 5,
  user_id: 7,
  state: 'enabled',
  url: 'https://hooks.example.com/peeks',
  events: ['purchase', 'deposit-cleared'],
  disabled_reason: null,
  previous_secret_until: null,
  ...overrides,
});
const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  delivery_id: 'msg_0123456789abcdef0123456789abcdef',
  webhook_id: 3,
  event: 'purchase',
  transaction_id: 'tx-1',
  state: 'failed',
  created_at: '2026-11-25T10:00:00.000Z',
  next_attempt_at: null,
  delivered_at: null,
  payload: { type: 'purchase', data: {} },
  attempts: [
    {
      attempt: 1,
      attempted_at: '2026-11-25T10:00:00.000Z',
      status_code: 500,
      error: null,
      latency_ms: 42,
      response_body: 'try later',
    },
  ],
  ...overrides,
});
const merchantUser = sessionUser({ merchant_id: 5, user_type: 'business' });

function webhooksApi(list: Webhook[], user = merchantUser, handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user, csrfToken: 'csrf' }),
    'GET /api/user/merchant-lookup': () => refused(404, [{ code: 40403, message: 'Merchant does not exist' }]),
    'POST /api/webhook/list-webhook': () => ok({ webhook: list }),
    ...handlers,
  });
}

describe('/webhook (spec §2 Webhooks page, §5 Webhook)', () => {
  beforeEach(resetSession);

  it('shows the table (State, URL, Events, Actions) and Add Webhook; empty reads "You have 0 Webhook"', async () => {
    webhooksApi([hook()]);
    const { unmount } = renderApp('/webhook');
    const table = await screen.findByRole('table');
    for (const column of ['State', 'URL', 'Events', 'Actions'])
      expect(within(table).getByRole('columnheader', { name: column })).toBeTruthy();
    expect(within(table).getByText('https://hooks.example.com/peeks')).toBeTruthy();
    expect(within(table).getByText('purchase, deposit-cleared')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Webhook' })).toBeTruthy();
    unmount();
    webhooksApi([]);
    renderApp('/webhook');
    expect(await screen.findByText('You have 0 Webhook')).toBeTruthy();
  });

  it('adds a webhook enabled by default, says the spec texts for bad input, and shows the secret once with Copy', async () => {
    const api = webhooksApi([], merchantUser, {
      'POST /api/webhook/create-webhook': () =>
        ok({ message: 'Webhook created successfully.', data: { webhook: hook(), secret: 'whsec_c2VjcmV0' } }),
    });
    const { user } = renderApp('/webhook');
    await user.click(await screen.findByRole('button', { name: 'Add Webhook' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Webhook' });
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: 'enabled' }).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter Url')).toBeTruthy();
    expect(within(dialog).getByText('Event is blank')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('URL'), 'hooks.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('URL is invalid')).toBeTruthy();
    expect(api.sent('POST', '/api/webhook/create-webhook')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'https://hooks.example.com/peeks');
    await user.click(within(dialog).getByRole('checkbox', { name: 'purchase' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await findToast('Webhook created successfully.')).toBeTruthy();
    expect(api.sent('POST', '/api/webhook/create-webhook')[0]?.body).toEqual({
      state: 'enabled',
      url: 'https://hooks.example.com/peeks',
      events: ['purchase'],
    });
    const secret = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(secret).getByText('whsec_c2VjcmV0')).toBeTruthy();
    expect(within(secret).getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(within(secret).getByText('Checking a signature')).toBeTruthy();
  });

  it("offers a personal user only their own wallet's events and sends merchant_id null", async () => {
    const api = webhooksApi([], sessionUser(), {
      'POST /api/webhook/create-webhook': () =>
        ok({
          message: 'Webhook created successfully.',
          data: { webhook: hook({ merchant_id: null }), secret: 'whsec_eA==' },
        }),
    });
    const { user } = renderApp('/webhook');
    await user.click(await screen.findByRole('button', { name: 'Add Webhook' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Webhook' });
    expect(within(dialog).queryByRole('checkbox', { name: 'purchase' })).toBeNull();
    expect(within(dialog).queryByRole('checkbox', { name: 'settlement' })).toBeNull();
    await user.type(within(dialog).getByLabelText('URL'), 'https://hooks.example.com/me');
    await user.click(within(dialog).getByRole('checkbox', { name: 'deposit-cleared' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/webhook/create-webhook')[0]?.body).toMatchObject({ merchant_id: null });
    });
  });

  it('edits with "Webhook Updated successfully." and deletes after "Are you sure you want to delete?"', async () => {
    const api = webhooksApi([hook()], merchantUser, {
      'POST /api/webhook/update-webhook': () => ok({ message: 'Webhook Updated successfully.', webhook: hook() }),
      'POST /api/webhook/delete-webhook': () => ok(),
    });
    const { user } = renderApp('/webhook');
    await user.click(await screen.findByRole('button', { name: 'Edit https://hooks.example.com/peeks' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Webhook' });
    await user.click(within(dialog).getByRole('radio', { name: 'disabled' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await findToast('Webhook Updated successfully.')).toBeTruthy();
    expect(api.sent('POST', '/api/webhook/update-webhook')[0]?.body).toMatchObject({
      webhook_id: 3,
      state: 'disabled',
    });

    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/peeks' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Webhook' });
    expect(within(confirm).getByText('Are you sure you want to delete?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Yes, delete it!' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/webhook/delete-webhook')[0]?.body).toEqual({ webhook_id: 3 });
    });
  });

  it('shows the delivery log (time, event, attempts, last status, latency, response) with Replay and Send test event', async () => {
    const api = webhooksApi([hook()], merchantUser, {
      'POST /api/webhook/list-deliveries': () => ok({ deliveries: [delivery()], total: 1 }),
      'POST /api/webhook/replay-delivery': () => ok({ delivery: delivery({ state: 'pending' }) }),
      'POST /api/webhook/send-test-event': () =>
        ok({ message: 'Test event sent.', delivery: delivery({ state: 'pending' }) }),
    });
    const { user } = renderApp('/webhook');
    await user.click(await screen.findByRole('button', { name: 'Delivery log https://hooks.example.com/peeks' }));
    const log = screen.getByRole('dialog', { name: 'Delivery log: https://hooks.example.com/peeks' });
    const row = await within(log).findByText('try later');
    const cells = row.closest('li');
    expect(cells).not.toBeNull();
    if (!cells) return;
    expect(within(cells).getByText('500')).toBeTruthy();
    expect(within(cells).getByText('42 ms')).toBeTruthy();
    expect(within(cells).getByText('failed')).toBeTruthy();
    await user.click(within(cells).getByRole('button', { name: 'Replay' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/webhook/replay-delivery')[0]?.body).toEqual({
        delivery_id: 'msg_0123456789abcdef0123456789abcdef',
      });
    });
    await user.click(within(log).getByRole('button', { name: 'Send test event' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/webhook/send-test-event')[0]?.body).toEqual({ webhook_id: 3 });
    });
  });

  it('rotates the secret after saying what happens, and shows the new one', async () => {
    webhooksApi([hook()], merchantUser, {
      'POST /api/webhook/rotate-secret': () =>
        ok({ message: 'Signing secret rotated successfully.', data: { webhook: hook(), secret: 'whsec_bmV3' } }),
    });
    const { user } = renderApp('/webhook');
    await user.click(await screen.findByRole('button', { name: 'Rotate secret https://hooks.example.com/peeks' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Rotate signing secret' })).getByRole('button', { name: 'Rotate' }),
    );
    expect(await screen.findByText('whsec_bmV3')).toBeTruthy();
  });

  it('/setting has its single Webhook tab', async () => {
    webhooksApi([]);
    renderApp('/setting');
    expect((await screen.findByRole('tab', { name: 'Webhook' })).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('You have 0 Webhook')).toBeTruthy();
  });
});
