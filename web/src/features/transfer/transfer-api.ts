import { recipientResponse, transactionResponse, type Recipient, type SendFundRequest } from '@peeks/contracts';
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
