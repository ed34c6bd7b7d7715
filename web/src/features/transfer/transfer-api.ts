import {
  contactListResponse,
  payMethodListResponse,
  recipientResponse,
  transactionResponse,
  type Contact,
  type PaymentMethod,
  type Recipient,
  type SendFundRequest,
} from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { callApi } from '../../lib/api.ts';

export type RecipientLookup = { status: 'loading' } | { status: 'found'; recipient: Recipient } | { status: 'missing' };

/**
 * The recipient the page's `gid` names (spec §7 user/lookupUserById). No
 * gid, a failed lookup, or a `uid` that is not that user's all read
 * 'User not found' (spec §2: "returns nothing or fails").
 */
export function useRecipient(gid: string | null, uid: string | null): RecipientLookup {
  const [lookup, setLookup] = useState<{ gid: string; result: RecipientLookup } | null>(null);

  useEffect(() => {
    if (gid === null || gid === '') return;
    const controller = new AbortController();
    callApi('/user/recipient-lookup', recipientResponse, { query: { guser_id: gid }, signal: controller.signal })
      .then(({ user }) => {
        const matches = uid === null || uid === String(user.user_id);
        setLookup({ gid, result: matches ? { status: 'found', recipient: user } : { status: 'missing' } });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLookup({ gid, result: { status: 'missing' } });
      });
    return () => {
      controller.abort();
    };
  }, [gid, uid]);

  if (gid === null || gid === '') return { status: 'missing' };
  return lookup?.gid === gid ? lookup.result : { status: 'loading' };
}

/** POST /api/account/send-fund with the attempt's Idempotency-Key: a retry of the same attempt moves nothing twice. */
export const sendFund = async (request: SendFundRequest, idempotencyKey: string) =>
  (await callApi('/account/send-fund', transactionResponse, { body: request, idempotencyKey })).transaction;

/** The contacts who have a Peeks Wallet account: the only ones Send Funds can pay. */
export async function listRecipients(signal?: AbortSignal): Promise<Contact[]> {
  const { contacts } = await callApi('/user/contact-list', contactListResponse, signal ? { signal } : {});
  return contacts.filter((contact) => contact.guser_id !== null);
}

/** The stored cards Send Funds may charge instead of the wallet (spec §4: state E, validated). */
export async function listCards(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const { methods } = await callApi('/account/pay-method', payMethodListResponse, {
    body: {},
    ...(signal ? { signal } : {}),
  });
  return methods.filter((method) => method.type === 'CC' && method.state === 'E' && method.validated !== '');
}
