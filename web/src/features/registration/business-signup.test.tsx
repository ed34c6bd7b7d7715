import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, renderApp, resetSession } from '../../testing/app.tsx';

const categories = () =>
  fakeApi({
    'GET /api/category': () =>
      ok({
        categories: [
          { category_id: 1, name: 'Food' },
          { category_id: 2, name: 'Retail' },
        ],
      }),
    'GET /api/category/subcategory': (_body, url) =>
      ok({
        subCategories:
          url.searchParams.get('categoryId') === '1'
            ? [{ sub_category_id: 11, category_id: 1, name: 'Coffee shop' }]
            : [{ sub_category_id: 21, category_id: 2, name: 'Books' }],
      }),
  });

describe('/register/business, Sign up for an Business account (spec §2, §5)', () => {
  beforeEach(resetSession);

  it('has the five sections, a Sign In link, and the dialling-code selectors beside the phones', async () => {
    categories();
    renderApp('/register/business');
    await screen.findByRole('heading', { name: 'Sign up for an Business account' });
    for (const section of ['User Details', 'Merchant Details', 'Address', 'Support', 'Owner'])
      expect(screen.getByRole('group', { name: section })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    for (const phone of ['Phone Number', 'Support Phone', 'Contact Phone', 'Owner Phone']) {
      const selector = screen.getAllByLabelText<HTMLSelectElement>(`${phone}: Dialling code`)[0]!;
      expect(selector.value).toBe('+1');
    }
  });

  it('changing the category resets the sub category and reloads its list', async () => {
    const api = categories();
    const { user } = renderApp('/register/business');
    const category = await screen.findByLabelText('Category');
    await screen.findByRole('option', { name: 'Food' });
    await user.selectOptions(category, '1');
    await user.selectOptions(
      await screen.findByLabelText('Sub Category'),
      await screen.findByRole('option', { name: 'Coffee shop' }),
    );
    expect(screen.getByLabelText<HTMLSelectElement>('Sub Category').value).toBe('11');
    await user.selectOptions(category, '2');
    await screen.findByRole('option', { name: 'Books' });
    expect(screen.queryByRole('option', { name: 'Coffee shop' })).toBeNull();
    expect(screen.getByLabelText<HTMLSelectElement>('Sub Category').value).toBe('');
    expect(api.sent('GET', '/api/category/subcategory')).toHaveLength(2);
  });

  it('an empty submit shows the business rules in the spec words', async () => {
    categories();
    const { user } = renderApp('/register/business');
    await user.click(await screen.findByRole('button', { name: 'Sign Up!' }));
    const merchant = screen.getByRole('group', { name: 'Merchant Details' });
    for (const text of [
      'Please enter Name',
      'Please enter DBA',
      'Please enter Website',
      'Please select Category',
      'Please select Sub Category',
      'Please select Business Type',
      'Please enter Date Established',
      'Please enter valid Monthly Sales',
      'Please enter Business Number',
      'Please select Business Country',
      'Please enter Phone Number',
    ]) {
      expect(await within(merchant).findByText(text)).toBeTruthy();
    }
    const support = screen.getByRole('group', { name: 'Support' });
    for (const text of [
      'Please enter Support Url',
      'Please enter Support Phone',
      'Please enter Support Email',
      'Please enter Contact Name',
      'Please enter Contact Email',
      'Please enter Contact Phone',
    ]) {
      expect(within(support).getByText(text)).toBeTruthy();
    }
    const owner = screen.getByRole('group', { name: 'Owner' });
    for (const text of [
      'Please enter Owner Citizenship',
      'Please enter Owner Birth Date',
      'Please enter Owner Name',
      'Please enter Owner Phone',
      'Please enter Owner Email',
    ]) {
      expect(within(owner).getByText(text)).toBeTruthy();
    }
    expect(within(screen.getByRole('group', { name: 'Address' })).getByText('Please enter First Name')).toBeTruthy();
  });

  it('phones take digits only and read the 10-digit rules; the postal code needs a country and its format', async () => {
    categories();
    const { user } = renderApp('/register/business');
    const support = await screen.findByLabelText<HTMLInputElement>('Support Phone');
    await user.type(support, '613-555');
    expect(support.value).toBe('613555');
    await user.tab();
    expect(await screen.findByText('Please enter 10 digit Support Phone')).toBeTruthy();
    await user.type(support, '01019');
    expect(await screen.findByText('Sorry, 10 digit Support Phone accepted only')).toBeTruthy();

    const address = screen.getByRole('group', { name: 'Address' });
    await user.type(within(address).getByLabelText('Postal/Zip Code'), 'K1A 0B1');
    await user.tab();
    expect(await within(address).findByText('Please select country first')).toBeTruthy();
    await user.selectOptions(within(address).getByLabelText('Country'), 'US');
    await user.click(screen.getByRole('button', { name: 'Sign Up!' }));
    expect(await within(address).findByText('Please enter valid Postal/Zip Code')).toBeTruthy();
    await user.selectOptions(within(address).getByLabelText('Country'), 'CA');
    await user.click(screen.getByRole('button', { name: 'Sign Up!' }));
    await waitFor(() => {
      expect(within(address).queryByText('Please enter valid Postal/Zip Code')).toBeNull();
    });
  });
});
