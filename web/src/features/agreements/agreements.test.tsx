import type { Agreement } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, renderApp, resetSession, sessionUser, type Handler } from '../../testing/app.tsx';

const terms = (overrides: Partial<Agreement> = {}): Agreement => ({
  agreement_id: 1,
  name: 'Terms and Conditions',
  version: 1,
  category: 'General',
  audience: 'user',
  short_description: '<p>Keep your credentials private.</p><img src="x" onerror="alert(1)"><script>alert(2)</script>',
  agreed_to: null,
  agree_by: '2099-12-31T00:00:00.000Z',
  effective_date: '2024-01-01T00:00:00.000Z',
  expiry_date: null,
  is_accepted: false,
  is_skipped: false,
  ...overrides,
});

function agreementsApi(list: Agreement[], handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
    'POST /api/agreement/agreement-list': () => ok({ agreements: list }),
    'GET /api/agreement/agreement-lookup': () => ok({ agreement: list[0] }),
    'POST /api/agreement/update-agreement': () =>
      ok({ agreement: terms({ agreed_to: '2026-11-25T10:00:00.000Z', is_accepted: true }) }),
    ...handlers,
  });
}

describe('/agreement (spec §2 Agreements page and modal)', () => {
  beforeEach(() => {
    resetSession();
    localStorage.clear();
  });

  it('lists Name, Version, Category, Agreed, Actions: Accept when pending, View when accepted', async () => {
    agreementsApi([terms(), terms({ agreement_id: 2, name: 'Privacy', agreed_to: '2026-01-01T00:00:00.000Z' })]);
    renderApp('/agreement');
    const table = await screen.findByRole('table');
    for (const column of ['Name', 'Version', 'Category', 'Agreed', 'Actions'])
      expect(within(table).getByRole('columnheader', { name: column })).toBeTruthy();
    expect(within(table).getByText('Pending')).toBeTruthy();
    expect(within(table).getByText('Accepted')).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Accept Terms and Conditions' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'View Privacy' })).toBeTruthy();
  });

  it('the modal shows the sanitized description, needs the checkbox to accept, and offers Cancel, Skip, Accept', async () => {
    const api = agreementsApi([terms()]);
    const { user } = renderApp('/agreement');
    await user.click(await screen.findByRole('button', { name: 'Accept Terms and Conditions' }));
    const dialog = screen.getByRole('dialog', { name: 'Terms and Conditions (version 1)' });
    expect(within(dialog).getByText('Keep your credentials private.')).toBeTruthy();
    expect(dialog.querySelector('script')).toBeNull();
    expect(dialog.querySelector('[onerror]')).toBeNull();
    for (const button of ['Cancel', 'Skip', 'Accept'])
      expect(within(dialog).getByRole('button', { name: button })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await within(dialog).findByText('Please accept terms and conditions')).toBeTruthy();
    expect(api.sent('POST', '/api/agreement/update-agreement')).toHaveLength(0);
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/agreement/update-agreement')[0]?.body).toEqual({
        agreement_id: 1,
        agreed_to: true,
      });
    });
  });

  it('reads the list again after an agreement is accepted, and shows it Accepted', async () => {
    let agreed: string | null = null;
    const api = agreementsApi([], {
      'POST /api/agreement/agreement-list': () => ok({ agreements: [terms({ agreed_to: agreed })] }),
      'POST /api/agreement/update-agreement': () => {
        agreed = '2026-11-25T10:00:00.000Z';
        return ok({ agreement: terms({ agreed_to: agreed, is_accepted: true }) });
      },
    });
    const { user } = renderApp('/agreement');
    await user.click(await screen.findByRole('button', { name: 'Accept Terms and Conditions' }));
    const dialog = screen.getByRole('dialog', { name: 'Terms and Conditions (version 1)' });
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Agreement accepted.')).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(await within(table).findByRole('button', { name: 'View Terms and Conditions' })).toBeTruthy();
    expect(within(table).getByText('Accepted')).toBeTruthy();
    expect(api.sent('POST', '/api/agreement/agreement-list')).toHaveLength(2);
  });

  it('offers no Skip once agree_by has passed', async () => {
    agreementsApi([terms({ agree_by: '2020-01-01T00:00:00.000Z' })]);
    const { user } = renderApp('/agreement');
    await user.click(await screen.findByRole('button', { name: 'Accept Terms and Conditions' }));
    expect(within(screen.getByRole('dialog')).queryByRole('button', { name: 'Skip' })).toBeNull();
  });
});

describe('the dashboard with a pending agreement (spec §4 Agreement)', () => {
  beforeEach(() => {
    resetSession();
    localStorage.clear();
  });

  it('opens a modal that cannot be dismissed until it is accepted, once Skip is no longer offered', async () => {
    const api = agreementsApi([terms({ agree_by: '2020-01-01T00:00:00.000Z' })]);
    const { user } = renderApp('/');
    const dialog = await screen.findByRole('dialog', { name: 'Terms and Conditions (version 1)' });
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Terms and Conditions (version 1)' })).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Terms and Conditions (version 1)' })).toBeNull();
    });
    expect(api.sent('POST', '/api/agreement/agreement-list')[0]?.body).toEqual({ valid_only: true, agreed_to: false });
  });

  it('while Skip is offered, Escape takes it: the agreement is skipped and the dashboard usable', async () => {
    const api = agreementsApi([terms()]);
    const { user } = renderApp('/');
    const dialog = await screen.findByRole('dialog', { name: 'Terms and Conditions (version 1)' });
    expect(within(dialog).getByRole('button', { name: 'Skip' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(api.sent('POST', '/api/agreement/update-agreement')[0]?.body).toEqual({ agreement_id: 1, skip: true });
  });

  it('opens nothing when there is no pending agreement', async () => {
    const api = agreementsApi([]);
    renderApp('/');
    await waitFor(() => {
      expect(api.sent('POST', '/api/agreement/agreement-list')).toHaveLength(1);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
