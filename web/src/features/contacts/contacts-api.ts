import {
  type AddRecipientRequest,
  contactDeletedResponse,
  contactListResponse,
  contactResponse,
  type CreateContactRequest,
  type UpdateContactRequest,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

export const createContact = async (form: CreateContactRequest) =>
  changed((await callApi('/user/contact-create', contactResponse, { body: form })).contact);
export const addRecipient = async (form: AddRecipientRequest) =>
  changed((await callApi('/user/recipient-create', contactResponse, { body: form })).contact);
export const updateContact = async (form: UpdateContactRequest) =>
  changed((await callApi('/user/contact-update', contactResponse, { body: form })).contact);
export const deleteContact = async (contactId: number) => {
  changed(await callApi('/user/contact-delete', contactDeletedResponse, { body: { contact_id: contactId } }));
};

/** The contacts feature's query keys: every read of it sits under `all`, which a change invalidates. */
export const contactKeys = {
  all: ['contacts'] as const,
  list: () => [...contactKeys.all, 'list'] as const,
};

/** After a save or a delete the list is read again (spec §4 Contact modal: "the list reloads"). */
const changed = <T>(result: T): T => {
  void queryClient.invalidateQueries({ queryKey: contactKeys.all });
  return result;
};

/** The signed-in user's contacts. */
export const useContacts = () =>
  useQuery({
    queryKey: contactKeys.list(),
    queryFn: async ({ signal }) => (await callApi('/user/contact-list', contactListResponse, { signal })).contacts,
  });
