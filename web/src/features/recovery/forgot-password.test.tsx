import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession } from '../../testing/app.tsx';

const recoveryApi = (overrides = {}) =>
  fakeApi({
    'POST /api/user/get-recovery-email': () => ok({ email: 'a***@e***.com' }),
    'POST /api/user/send-recovery-code': () => ok({}),
    'POST /api/user/check-recovery-code': () => ok({}),
    'POST /api/user/reset-password': () => ok({}),
    ...overrides,
  });

describe('/forgot-password, five steps (spec §2, §4, §5 Forgot password)', () => {
  beforeEach(resetSession);

  it('goes from username to a changed password with the spec texts, sending what each step needs', async () => {
    const api = recoveryApi();
    const { user } = renderApp('/forgot-password');
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Username'), 'anne_tremblay');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Your code will be sent to')).toBeTruthy();
    expect(screen.getByText('a***@e***.com')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send Code' }));

    await user.click(await screen.findByRole('button', { name: 'Next Step' }));
    expect(await screen.findByText('Recovery Code is Required')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend Recovery Code' }));
    await waitFor(() => {
      expect(api.sent('POST', '/api/user/send-recovery-code')).toHaveLength(2);
    });
    await user.type(screen.getByLabelText('Recovery Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Next Step' }));

    await user.click(await screen.findByRole('button', { name: 'Save My Password' }));
    expect(await screen.findAllByText('Password is required')).toHaveLength(2);
    await user.type(screen.getByLabelText('Password'), 'Changed34');
    await user.type(screen.getByLabelText('Confirm Password'), 'Changed35');
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'Changed34');
    await user.click(screen.getByRole('button', { name: 'Save My Password' }));

    expect(await screen.findByText('Your Password has been changed successfully!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Take me Home' }).getAttribute('href')).toBe('/login');
    expect(api.sent('POST', '/api/user/reset-password')[0]?.body).toEqual({
      username: 'anne_tremblay',
      recoveryCode: '123456',
      userPassword: 'Changed34',
      confirmPassword: 'Changed34',
    });
  });

  it("shows a refused step's server text under 'Error!' and stays on the step", async () => {
    recoveryApi({
      'POST /api/user/check-recovery-code': () =>
        refused(422, [{ code: 42220, field: 'recoveryCode', message: 'Recovery Code is invalid' }]),
    });
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Username'), 'anne_tremblay');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(await screen.findByRole('button', { name: 'Send Code' }));
    await user.type(await screen.findByLabelText('Recovery Code'), '999999');
    await user.click(screen.getByRole('button', { name: 'Next Step' }));
    expect(await screen.findByText('Error!')).toBeTruthy();
    expect(screen.getAllByText('Recovery Code is invalid').length).toBeGreaterThan(0);
    expect(screen.getByText('Step 3 of 5')).toBeTruthy();
  });
});
