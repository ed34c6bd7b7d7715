import {
  type AddRecipientRequest,
  contactDeletedResponse,
  contactListResponse,
  contactResponse,
  type Contact,
  type CreateContactRequest,
  type UpdateContactRequest,
} from '@peeks/contracts';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, callApi } from '../../lib/api.ts';

export const createContact = async (form: CreateContactRequest) =>
  (await callApi('/user/contact-create', contactResponse, { body: form })).contact;
export const addRecipient = async (form: AddRecipientRequest) =>
  (await callApi('/user/recipient-create', contactResponse, { body: form })).contact;
export const updateContact = async (form: UpdateContactRequest) =>
  (await callApi('/user/contact-update', contactResponse, { body: form })).contact;
export const deleteContact = async (contactId: number) => {
  await callApi('/user/contact-delete', contactDeletedResponse, { body: { contact_id: contactId } });
};

type ContactList =
  { status: 'loading' } | { status: 'ready'; contacts: Contact[] } | { status: 'failed'; errors: readonly string[] };

/** The signed-in user's contacts, loaded on mount; `reload` after a save or a delete (spec §4 Contact modal: "the list reloads"). */
export function useContacts() {
  const [list, setList] = useState<ContactList>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    callApi('/user/contact-list', contactListResponse, { signal: controller.signal })
      .then((answer) => {
        setList({ status: 'ready', contacts: answer.contacts });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError) setList({ status: 'failed', errors: error.texts });
      });
    return () => {
      controller.abort();
    };
  }, [version]);

  const reload = useCallback(() => {
    // After a save the old list stays until the new one is in; after a failure the loader shows again.
    setList((each) => (each.status === 'failed' ? { status: 'loading' } : each));
    setVersion((each) => each + 1);
  }, []);
  return { list, reload };
}
