import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const field = (label: string) => screen.getByLabelText(label);

describe('/login, Account Access (spec §2, §4 Login, §5 Login)', () => {
  beforeEach(resetSession);

  it('shows a field error only after the field is touched, in the spec words', async () => {
    fakeApi();
    const { user } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Account Access' });
    expect(screen.queryByText('Please enter Username/Email')).toBeNull();
    await user.click(field('Email or username'));
    await user.tab();
    expect(await screen.findByText('Please enter Username/Email')).toBeTruthy();
    expect(screen.queryByText('Please enter Password')).toBeNull();
    expect(field('Email or username').getAttribute('aria-invalid')).toBe('true');
    expect(field('Email or username').getAttribute('aria-describedby')).toContain(
      screen.getByText('Please enter Username/Email').id,
    );
  });

  it('submitting empty shows every rule; a short password reads as the spec says; editing clears', async () => {
    fakeApi();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Access My Account' }));
    expect(await screen.findByText('Please enter Username/Email')).toBeTruthy();
    expect(screen.getByText('Please enter Password')).toBeTruthy();
    await user.type(field('Password'), 'abc');
    expect(await screen.findByText('Password must have at least 6 characters')).toBeTruthy();
    await user.type(field('Email or username'), 'x'.repeat(65));
    expect(await screen.findByText('Please enter at most 64 characters Username/Email')).toBeTruthy();
    await user.clear(field('Email or username'));
    await user.type(field('Email or username'), 'anne_tremblay');
    await waitFor(() => {
      expect(screen.queryByText('Please enter at most 64 characters Username/Email')).toBeNull();
    });
  });

  it('a refused login shows the login-failed text once, keeps the form, re-enables it, and an edit clears the text', async () => {
    const api = fakeApi({
      'POST /api/login': () => refused(401, [{ code: 1006, message: 'Incorrect Username/Email or Password' }]),
    });
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email or username'), 'anne_tremblay');
    await user.type(field('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    expect(await screen.findByText('Incorrect Username/Email or Password')).toBeTruthy();
    expect(screen.getAllByText('Incorrect Username/Email or Password')).toHaveLength(1);
    // Not a field to fix: the text reads alone, not under 'Please fix the following:'.
    expect(screen.queryByText('Please fix the following:')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Access My Account' }).disabled).toBe(false);
    expect(api.sent('POST', '/api/login')[0]?.headers['x-csrf-token']).toBe('csrf-anonymous');
    await user.type(field('Password'), '4');
    expect(screen.queryByText('Incorrect Username/Email or Password')).toBeNull();
  });

  it('disables the button and shows the loading overlay while submitting, then goes to /', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => undefined;
    const user0 = sessionUser();
    fakeApi({
      'POST /api/login': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    const { user, router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email or username'), 'anne_tremblay');
    await user.type(field('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    await waitFor(() => {
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Access My Account' }).disabled).toBe(true);
    });
    expect(screen.getByText('Please wait…')).toBeTruthy();
    answer(ok({ user: user0, csrfToken: 'csrf-signed-in' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(await screen.findByText('Welcome back, anne_tremblay.')).toBeTruthy();
  });

  it('takes a finance operator to the operations console', async () => {
    fakeApi({
      'POST /api/login': () =>
        ok({ user: sessionUser({ username: 'demo_finance', role: 'finance' }), csrfToken: 'csrf-signed-in' }),
    });
    const { user, router } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email or username'), 'demo_finance');
    await user.type(field('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Access My Account' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/operations');
    });
  });
});
