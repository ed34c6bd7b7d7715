import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, renderApp, resetSession } from '../../testing/app.tsx';

/** Issue 22: sign-up required accepting terms whose link, and the footer's, led nowhere. */
describe('the terms of service and the privacy notice', () => {
  beforeEach(() => {
    resetSession();
    fakeApi({ 'GET /api/session': () => ok({ user: null, csrfToken: 'csrf-anonymous' }) });
  });

  it("the footer's Terms And Conditions and Privacy links open real pages", async () => {
    const { user, router } = renderApp('/login');
    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('link', { name: 'Terms And Conditions' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/terms');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '1. A sandbox service' })).toBeTruthy();
    expect(screen.getByText(/No real card is charged/)).toBeTruthy();

    await user.click(within(footer).getByRole('link', { name: 'Privacy' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Notice' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '5. Your rights' })).toBeTruthy();
  });

  it("sign-up's terms of service link is live and opens beside the form, keeping what was typed", async () => {
    renderApp('/register/personal');
    const link = await screen.findByRole('link', { name: 'terms of service' });
    expect(link.getAttribute('href')).toBe('/terms');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('aria-disabled')).toBeNull();
  });
});
