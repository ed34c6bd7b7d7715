import type { Contact } from '@peeks/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  fakeApi,
  held,
  ok,
  refused,
  renderApp,
  resetSession,
  sessionUser,
  type Answer,
  type Handler,
} from '../../testing/app.tsx';
import { contact } from '../../testing/contacts.ts';

const me = sessionUser();

function contactsApi(list: () => Contact[] | Answer | Promise<Answer>, handlers: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/session': () => ok({ user: me, csrfToken: 'csrf-signed-in' }),
    'GET /api/user/contact-list': async () => {
      const answer = await list();
      return Array.isArray(answer) ? ok({ contacts: answer, total: answer.length }) : answer;
    },
    ...handlers,
  });
}

const A_VALID_CONTACT = {
  'First Name': 'Luc',
  'Last Name': 'Tremblay',
  'Phone Number': '6135550123',
  Email: 'luc@example.com',
  'Confirm Email': 'luc@example.com',
  'Address Line 1': '12 Sparks Street',
  'Apartment/Unit/Suite': 'Suite 3',
  'Province/State': 'on',
  City: 'Ottawa',
  'Postal/Zip Code': 'K1P 5B9',
};

describe('/contacts (spec §2 Contacts, §4 Contact modal, §5 Contact form variant A)', () => {
  beforeEach(resetSession);

  it('shows a loader while the list loads, then "You have 0 Contacts" and the Invite A New Contact button', async () => {
    const list = held();
    contactsApi(() => list.answer);
    renderApp('/contacts');
    expect(await screen.findByText('Loading contacts…')).toBeTruthy();
    list.release(ok({ contacts: [], total: 0 }));
    expect(await screen.findByText('You have 0 Contacts')).toBeTruthy();
    expect(screen.queryByText('Loading contacts…')).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite A New Contact' })).toBeTruthy();
  });

  it('a list that fails to load says why and offers Try Again', async () => {
    const answers: Answer[] = [refused(503, [{ code: 50300, message: 'Service Unavailable' }])];
    const api = contactsApi(() => answers.shift() ?? ok({ contacts: [contact()], total: 1 }));
    const { user } = renderApp('/contacts');
    const problem = await screen.findByRole('alert');
    expect(within(problem).getByText('Please fix the following:')).toBeTruthy();
    expect(within(problem).getByText('Service unavailable')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('button', { name: 'Marie Gagnon' })).toBeTruthy();
    expect(api.sent('GET', '/api/user/contact-list')).toHaveLength(2);
  });

  it("shows each contact's card (name, phone, e-mail, address, city, province, country) and hides the user's own entry", async () => {
    contactsApi(() => [
      contact(),
      contact({
        contact_id: 2,
        guser_id: me.guser_id,
        user_id: me.user_id,
        name_first: 'Anne',
        name_last: 'Tremblay',
        email: me.email,
      }),
    ]);
    renderApp('/contacts');
    const cards = await screen.findByRole('list', { name: 'Your contacts' });
    const card = within(cards).getByRole('listitem');
    expect(within(card).getByRole('button', { name: 'Marie Gagnon' })).toBeTruthy();
    for (const text of ['+1 613 555 0199', 'marie@example.com', '200 Rideau Street, Ottawa, ON, Canada'])
      expect(within(card).getByText(text)).toBeTruthy();
    expect(screen.queryByText('Anne Tremblay', { selector: 'button' })).toBeNull();
  });

  it('an empty Add New Contact form shows every variant-A rule in the spec words', async () => {
    contactsApi(() => []);
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Invite A New Contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Contact' });
    expect(within(dialog).getByRole('group', { name: 'Recipient Contact Information' })).toBeTruthy();
    expect(within(dialog).getByRole('group', { name: 'Recipient Residence Information' })).toBeTruthy();
    expect(within(dialog).getByRole<HTMLOptionElement>('option', { name: '--Choose a Country--' }).selected).toBe(true);
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Phone Number: Dialling code').value).toBe('+1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    for (const text of [
      'Please enter First Name',
      'Please enter Last Name',
      'Please enter Phone Number',
      'Please enter Email',
      'Please enter Confirm Email',
      'Please enter Address Line 1',
      'Please select Country',
      'Please enter Province/State',
      'Please enter City',
      'Please enter Postal/Zip Code',
    ]) {
      expect(await within(dialog).findByText(text)).toBeTruthy();
    }
    expect(within(dialog).getByLabelText('First Name').getAttribute('aria-invalid')).toBe('true');
  });

  // Types some 300 keys one by one: on a loaded machine that alone can take longer than the default 30 s.
  it(
    'checks lengths, digits, e-mails, the province code and the postal format with the spec texts',
    { timeout: 90_000 },
    async () => {
      contactsApi(() => []);
      const { user } = renderApp('/contacts');
      await user.click(await screen.findByRole('button', { name: 'Invite A New Contact' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add New Contact' });
      const field = (label: string) => within(dialog).getByLabelText(label);
      const typeIn = async (label: string, text: string) => {
        await user.clear(field(label));
        await user.type(field(label), text);
        await user.tab();
      };
      const shows = async (text: string) => {
        expect(await within(dialog).findByText(text)).toBeTruthy();
      };

      await typeIn('First Name', 'L');
      await shows('Please enter at least 2 characters First Name');
      await typeIn('Last Name', 'x'.repeat(65));
      await shows('Please enter at most 64 characters Last Name');
      await typeIn('Phone Number', '613-555');
      expect(field('Phone Number')).toHaveProperty('value', '613555');
      await shows('Please enter valid Phone Number');
      await typeIn('Phone Number', '61355501234');
      await shows('Sorry,11 digit Phone Number accepted only');
      await typeIn('Email', 'luc@');
      await shows('Please enter valid Email');
      await typeIn('Email', 'luc@example.com');
      await typeIn('Confirm Email', 'lucas@example.com');
      await shows('Email and Confirm Email do not match, please try again.');
      await typeIn('Address Line 1', '12 Main');
      await shows('Please enter at least 8 characters Address Line 1');
      await typeIn('Apartment/Unit/Suite', 'u'.repeat(65));
      await shows('Please enter at most 64 characters Apartment/Unit/Suite');
      await typeIn('Province/State', 'Ont');
      await shows('Please enter Province/State');
      await typeIn('City', 'Ot');
      await shows('Please enter at least 3 characters City');
      await typeIn('Postal/Zip Code', 'K1P');
      await shows('Please enter at least 4 characters Postal/Zip Code');
      await user.selectOptions(field('Country'), 'CA');
      await typeIn('Postal/Zip Code', '90210');
      await shows('Please enter valid Postal/Zip Code');
      await user.selectOptions(field('Country'), 'US');
      await typeIn('Postal/Zip Code', 'K1P 5B9');
      await shows('Please enter valid Postal/Zip Code');
    },
  );

  it('saves a new contact, closes the form and reloads the list; the phone goes with its dialling code', async () => {
    let saved: Contact[] = [];
    const api = contactsApi(() => saved, {
      'POST /api/user/contact-create': () => {
        saved = [
          contact({
            contact_id: 9,
            guser_id: null,
            user_id: null,
            name_first: 'Luc',
            name_last: 'Tremblay',
            email: 'luc@example.com',
            phone: '+446135550123',
          }),
        ];
        return ok({ contact: saved[0] });
      },
    });
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Invite A New Contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Contact' });
    for (const [label, text] of Object.entries(A_VALID_CONTACT))
      await user.type(within(dialog).getByLabelText(label), text);
    await user.selectOptions(within(dialog).getByLabelText('Phone Number: Dialling code'), '+44');
    await user.selectOptions(within(dialog).getByLabelText('Country'), 'CA');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('button', { name: 'Luc Tremblay' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/user/contact-create')[0]?.body).toEqual({
      name_first: 'Luc',
      name_last: 'Tremblay',
      phone_region: '+44',
      phone: '6135550123',
      email: 'luc@example.com',
      confirm_email: 'luc@example.com',
      address1: '12 Sparks Street',
      address2: 'Suite 3',
      country: 'CA',
      province: 'ON',
      city: 'Ottawa',
      postal: 'K1P 5B9',
    });
    expect(api.sent('POST', '/api/user/contact-create')[0]?.headers['x-csrf-token']).toBe('csrf-signed-in');
    expect(api.sent('GET', '/api/user/contact-list')).toHaveLength(2);
  });

  it("a duplicate (23201) reads 'Sorry, This Contact Already Exist' and the form stays open; reopening starts clean", async () => {
    contactsApi(() => [], {
      'POST /api/user/contact-create': () =>
        refused(409, [{ code: 23201, field: 'email', message: 'Contact already exists' }]),
    });
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Invite A New Contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Contact' });
    for (const [label, text] of Object.entries(A_VALID_CONTACT))
      await user.type(within(dialog).getByLabelText(label), text);
    await user.selectOptions(within(dialog).getByLabelText('Country'), 'CA');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Announced twice: in the list above the form, then under its field.
    const [list, field] = within(dialog).getAllByRole('alert');
    expect(within(list!).getByText('Sorry, This Contact Already Exist')).toBeTruthy();
    expect(field!.textContent).toBe('Sorry, This Contact Already Exist');
    expect(within(dialog).getAllByText('Sorry, This Contact Already Exist')).toHaveLength(2);

    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Invite A New Contact' }));
    const reopened = await screen.findByRole('dialog', { name: 'Add New Contact' });
    expect(within(reopened).queryByText('Sorry, This Contact Already Exist')).toBeNull();
    expect(within(reopened).getByLabelText('First Name')).toHaveProperty('value', '');
  });

  it('a card opens the choice dialog; Send A Money Transfer goes to /transfer-fund with the gid and uid', async () => {
    contactsApi(() => [contact()]);
    const { user, router } = renderApp('/contacts');
    await user.click(await screen.findByText('marie@example.com'));
    const choice = screen.getByRole('dialog', { name: 'Marie Gagnon' });
    expect(
      within(choice)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['×', 'Send A Money Transfer', 'Send Funds', 'Edit Contact', 'Delete Contact']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Marie Gagnon' }));
    await user.click(screen.getByRole('button', { name: 'Send A Money Transfer' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/transfer-fund');
    });
    expect(router.state.location.search).toBe('?gid=5d2c6a7e-3b1f-4c1e-8f3e-2a9b7c6d5e41&uid=12');
  });

  it('Edit Contact opens Update Contact Details filled in, the phone split into region and 10 digits, and saves with the id', async () => {
    const api = contactsApi(() => [contact({ phone: '+446135550199', phone_region: '+44' })], {
      'POST /api/user/contact-update': () => ok({ contact: contact({ city: 'Gatineau' }) }),
    });
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Marie Gagnon' }));
    await user.click(screen.getByRole('button', { name: 'Edit Contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Contact Details' });
    expect(within(dialog).getByLabelText('Phone Number')).toHaveProperty('value', '6135550199');
    expect(within(dialog).getByLabelText('Phone Number: Dialling code')).toHaveProperty('value', '+44');
    expect(within(dialog).getByLabelText('Confirm Email')).toHaveProperty('value', 'marie@example.com');
    await user.clear(within(dialog).getByLabelText('City'));
    await user.type(within(dialog).getByLabelText('City'), 'Gatineau');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(api.sent('POST', '/api/user/contact-update')[0]?.body).toMatchObject({
      contact_id: 1,
      city: 'Gatineau',
      phone: '6135550199',
      phone_region: '+44',
      email: 'marie@example.com',
      confirm_email: 'marie@example.com',
    });
    expect(api.sent('GET', '/api/user/contact-list')).toHaveLength(2);
  });

  it('Delete Contact asks "Are you sure you want to delete?", then says Deleted! / Your contact has been deleted.', async () => {
    let list = [contact()];
    const api = contactsApi(() => list, {
      'POST /api/user/contact-delete': () => {
        list = [];
        return ok({ message: 'Your contact has been deleted.' });
      },
    });
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Marie Gagnon' }));
    await user.click(screen.getByRole('button', { name: 'Delete Contact' }));
    let confirm = screen.getByRole('dialog', { name: 'Delete Contact' });
    expect(within(confirm).getByText('Are you sure you want to delete?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/user/contact-delete')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Marie Gagnon' }));
    await user.click(screen.getByRole('button', { name: 'Delete Contact' }));
    confirm = screen.getByRole('dialog', { name: 'Delete Contact' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes, delete it!' }));
    const done = await screen.findByRole('dialog', { name: 'Deleted!' });
    expect(within(done).getByText('Your contact has been deleted.')).toBeTruthy();
    expect(api.sent('POST', '/api/user/contact-delete')[0]?.body).toEqual({ contact_id: 1 });
    await user.click(within(done).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('You have 0 Contacts')).toBeTruthy();
  });

  it('a refused delete shows its text in the confirmation and keeps it open', async () => {
    contactsApi(() => [contact()], {
      'POST /api/user/contact-delete': () =>
        refused(404, [{ code: 40411, field: 'contact_id', message: 'Contact not found' }]),
    });
    const { user } = renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Marie Gagnon' }));
    await user.click(screen.getByRole('button', { name: 'Delete Contact' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete it!' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Contact' });
    expect(await within(confirm).findByText('Contact does not exist')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Deleted!' })).toBeNull();
  });
});
