import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';

const field = (label: string) => screen.getByLabelText(label);

describe('/register/personal, Sign up for an account (spec §2, §5 Registration)', () => {
  beforeEach(resetSession);

  it('an empty submit shows the rule of every field in the spec words', async () => {
    fakeApi();
    const { user } = renderApp('/register/personal');
    await screen.findByRole('heading', { name: 'Sign up for an account' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    for (const text of [
      'Please enter Username',
      'Please enter Email',
      'Please enter Password',
      'Please enter Password first',
      'Please enter Birth Date',
      'Please select Country',
      'Please accept terms and conditions',
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(screen.getByText('Already have an account?').querySelector('a')?.getAttribute('href')).toBe('/login');
  });

  it('lists the password rules under the field before any submit, and ticks each as it is met', async () => {
    fakeApi();
    const { user } = renderApp('/register/personal');
    const rules = await screen.findByRole('list', { name: 'Your password needs' });
    const ticked = () =>
      within(rules)
        .getAllByRole('listitem')
        .map((rule) => [rule.textContent.replace(/ \((done|not yet)\)$/, ''), rule.classList.contains('met')]);
    expect(ticked()).toEqual([
      ['○ 8 to 12 characters', false],
      ['○ Upper and lower case letters', false],
      ['○ At least one digit', false],
    ]);
    expect(field('Password').getAttribute('aria-describedby')).toContain(rules.parentElement?.id);
    await user.type(field('Password'), 'abcdefgh');
    expect(ticked().map(([, met]) => met)).toEqual([true, false, false]);
    await user.type(field('Password'), 'A1');
    expect(ticked().map(([, met]) => met)).toEqual([true, true, true]);
    expect(within(rules).getAllByText('(done)')).toHaveLength(3);
    await user.type(field('Password'), 'xyz');
    expect(ticked().map(([, met]) => met)).toEqual([false, true, true]);
    expect(screen.queryByText(/Please enter/)).toBeNull();
  });

  it('checks each rule as it is typed: lengths, characters, brand word, e-mail, password mix and match, age', async () => {
    fakeApi();
    const { user } = renderApp('/register/personal');
    await user.type(await screen.findByLabelText('Username'), 'anne');
    await user.tab();
    expect(await screen.findByText('Please enter at least 6 characters Username')).toBeTruthy();
    await user.type(field('Username'), ' x!');
    expect(await screen.findByText('Please enter valid Username')).toBeTruthy();
    await user.clear(field('Username'));
    await user.type(field('Username'), 'mypeeks_account');
    expect(await screen.findByText('Username must not contain the word Peeks')).toBeTruthy();

    await user.type(field('Email'), 'anne@');
    await user.tab();
    expect(await screen.findByText('Please enter valid Email')).toBeTruthy();

    await user.type(field('Password'), 'short');
    await user.tab();
    expect(await screen.findByText('Please enter at least 8 characters Password')).toBeTruthy();
    await user.clear(field('Password'));
    await user.type(field('Password'), 'alllowercase');
    expect(await screen.findByText('Please enter Password with mixed case of letters & numbers')).toBeTruthy();
    await user.clear(field('Password'));
    await user.type(field('Password'), 'Abcdefgh12345');
    expect(await screen.findByText('Please enter at most 12 characters Password')).toBeTruthy();
    await user.clear(field('Password'));
    await user.type(field('Password'), 'Secret123');
    await user.type(field('Confirm Password'), 'Secret124');
    await user.tab();
    expect(await screen.findByText('Password and Confirm password do not match, please try again.')).toBeTruthy();

    await user.type(field('Birth Date'), '31022000');
    await user.tab();
    expect(await screen.findByText('Please enter valid Birth Date')).toBeTruthy();
    await user.clear(field('Birth Date'));
    const thisYear = new Date().getUTCFullYear();
    await user.type(field('Birth Date'), `0101${thisYear - 10}`);
    expect(await screen.findByText('You must be at least 18 years old to register')).toBeTruthy();
  });

  it('puts the dashes into the birth date while typing, not while deleting', async () => {
    fakeApi();
    const { user } = renderApp('/register/personal');
    const birth = await screen.findByLabelText<HTMLInputElement>('Birth Date');
    await user.type(birth, '15');
    expect(birth.value).toBe('15-');
    await user.type(birth, '06');
    expect(birth.value).toBe('15-06-');
    await user.type(birth, '1990');
    expect(birth.value).toBe('15-06-1990');
    // Deleting the year's digits drops the dash that waited for them.
    await user.type(birth, '{Backspace}{Backspace}{Backspace}{Backspace}');
    expect(birth.value).toBe('15-06');
    await user.type(birth, '{Backspace}');
    expect(birth.value).toBe('15-0');
  });

  it('sends the form as the API takes it, and a taken username and e-mail show under their fields and once in the list', async () => {
    const api = fakeApi({
      'POST /api/register/personal': () =>
        refused(409, [
          { code: 4503, field: 'username', message: 'Username Already Exist' },
          { code: 4507, field: 'email', message: 'Email ID Is Already Exist' },
        ]),
    });
    const { user } = renderApp('/register/personal');
    await user.type(await screen.findByLabelText('Username'), ' anne_tremblay ');
    await user.type(field('Email'), 'anne@example.com');
    await user.type(field('Password'), 'Secret123');
    await user.type(field('Confirm Password'), 'Secret123');
    await user.type(field('Birth Date'), '15061990');
    await user.selectOptions(field('Country'), 'CA');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const alert = await screen.findByText('Please fix the following:');
    expect(alert.parentElement?.textContent).toContain('Username Already Exist');
    expect(screen.getAllByText('Username Already Exist')).toHaveLength(2);
    expect(screen.getAllByText('Email ID Is Already Exist')).toHaveLength(2);
    expect(api.sent('POST', '/api/register/personal')[0]?.body).toEqual({
      username: 'anne_tremblay',
      email: 'anne@example.com',
      password: 'Secret123',
      confirm_password: 'Secret123',
      birthday: '15-06-1990',
      country: 'CA',
      termsAccepted: 1,
    });
    await user.type(field('Email'), 'x');
    expect(screen.queryByText('Please fix the following:')).toBeNull();
  });

  it('a new account is signed in and goes to /', async () => {
    fakeApi({ 'POST /api/register/personal': () => ok({ user: sessionUser(), csrfToken: 'csrf-new' }) });
    const { user, router } = renderApp('/register/personal');
    await user.type(await screen.findByLabelText('Username'), 'anne_tremblay');
    await user.type(field('Email'), 'anne@example.com');
    await user.type(field('Password'), 'Secret123');
    await user.type(field('Confirm Password'), 'Secret123');
    await user.type(field('Birth Date'), '15061990');
    await user.selectOptions(field('Country'), 'CA');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(await screen.findByRole('button', { name: /Account menu/ })).toBeTruthy();
  });
});
