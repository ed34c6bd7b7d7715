import {
  categoriesResponse,
  signedInResponse,
  subCategoriesResponse,
  type BusinessRegistration,
  type PersonalRegistration,
} from '@peeks/contracts';
import { useEffect, useState } from 'react';
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

/** Categories, then the sub categories of the chosen one (reloaded whenever the category changes; none while no category is chosen). */
export function useCategories(categoryId: number | undefined) {
  const [categories, setCategories] = useState<Named[]>([]);
  const [subCategories, setSubCategories] = useState<{ categoryId: number; list: Named[] } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    callApi('/category', categoriesResponse, { signal: controller.signal })
      .then((answer) => {
        setCategories(answer.categories.map((each) => ({ id: each.category_id, name: each.name })));
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
    };
  }, []);

  useEffect(() => {
    if (categoryId === undefined || !Number.isInteger(categoryId)) return;
    const controller = new AbortController();
    callApi('/category/subcategory', subCategoriesResponse, { query: { categoryId }, signal: controller.signal })
      .then((answer) => {
        setSubCategories({
          categoryId,
          list: answer.subCategories.map((each) => ({ id: each.sub_category_id, name: each.name })),
        });
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
    };
  }, [categoryId]);

  // Only the chosen category's list: the previous one's never shows while the new one loads.
  return {
    categories,
    subCategories: subCategories !== null && subCategories.categoryId === categoryId ? subCategories.list : [],
  };
}
