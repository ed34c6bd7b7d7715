import {
  categoriesResponse,
  signedInResponse,
  subCategoriesResponse,
  type BusinessRegistration,
  type PersonalRegistration,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { signedIn } from '../session/index.ts';

/** Registration signs the new user in: the answer is a session like a login's. */
export async function registerPersonal(form: PersonalRegistration) {
  await signedIn(await callApi('/register/personal', signedInResponse, { body: form }));
}

export async function registerBusiness(form: BusinessRegistration) {
  await signedIn(await callApi('/register/business', signedInResponse, { body: form }));
}

export interface Named {
  id: number;
  name: string;
}

/** The registration feature's query keys. */
export const registrationKeys = {
  all: ['registration'] as const,
  categories: () => [...registrationKeys.all, 'categories'] as const,
  subCategories: (categoryId: number) => [...registrationKeys.all, 'sub-categories', categoryId] as const,
};

/** Categories, then the sub categories of the chosen one (read whenever the category changes; none while no category is chosen). */
export function useCategories(categoryId: number | undefined) {
  const chosen = categoryId !== undefined && Number.isInteger(categoryId);
  const categories = useQuery({
    queryKey: registrationKeys.categories(),
    queryFn: async ({ signal }): Promise<Named[]> =>
      (await callApi('/category', categoriesResponse, { signal })).categories.map((each) => ({
        id: each.category_id,
        name: each.name,
      })),
  });
  const subCategories = useQuery({
    queryKey: registrationKeys.subCategories(categoryId ?? 0),
    queryFn: async ({ signal }): Promise<Named[]> =>
      (
        await callApi('/category/subcategory', subCategoriesResponse, {
          query: { categoryId: categoryId ?? 0 },
          signal,
        })
      ).subCategories.map((each) => ({ id: each.sub_category_id, name: each.name })),
    enabled: chosen,
  });
  // Only the chosen category's list: the previous one's never shows while the new one loads.
  return { categories: categories.data ?? [], subCategories: (chosen && subCategories.data) || [] };
}
