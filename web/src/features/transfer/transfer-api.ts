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
import { useQueries, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';

export type RecipientLookup = { status: 'loading' } | { status: 'found'; recipient: Recipient } | { status: 'missing' };

/** The transfer feature's query keys. */
export const transferKeys = {
  all: ['transfer'] as const,
  recipient: (gid: string) => [...transferKeys.all, 'recipient', gid] as const,
  recipients: () => [...transferKeys.all, 'recipients'] as const,
  cards: () => [...transferKeys.all, 'cards'] as const,
};

/**
 * The recipient the page's `gid` names (spec §7 user/lookupUserById). No
 * gid, a failed lookup, or a `uid` that is not that user's all read
 * 'User not found' (spec §2: "returns nothing or fails").
 */
export function useRecipient(gid: string | null, uid: string | null): RecipientLookup {
  const named = gid !== null && gid !== '';
  const lookup = useQuery({
    queryKey: transferKeys.recipient(gid ?? ''),
    queryFn: async ({ signal }) =>
      (await callApi('/user/recipient-lookup', recipientResponse, { query: { guser_id: gid ?? '' }, signal })).user,
    enabled: named,
  });
  if (!named || lookup.isError) return { status: 'missing' };
  if (lookup.isPending) return { status: 'loading' };
  return uid === null || uid === String(lookup.data.user_id)
    ? { status: 'found', recipient: lookup.data }
    : { status: 'missing' };
}

/** POST /api/account/send-fund with the attempt's Idempotency-Key: a retry of the same attempt moves nothing twice. */
export const sendFund = async (request: SendFundRequest, idempotencyKey: string) =>
  (await callApi('/account/send-fund', transactionResponse, { body: request, idempotencyKey })).transaction;

/** The contacts who have a Peeks Wallet account (the only ones Send Funds can pay), and the stored cards it may charge instead of the wallet (spec §4: state E, validated). */
export const useSendFundsChoices = () =>
  useQueries({
    queries: [
      {
        queryKey: transferKeys.recipients(),
        queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Contact[]> =>
          (await callApi('/user/contact-list', contactListResponse, { signal })).contacts.filter(
            (contact) => contact.guser_id !== null,
          ),
      },
      {
        queryKey: transferKeys.cards(),
        queryFn: async ({ signal }: { signal: AbortSignal }): Promise<PaymentMethod[]> =>
          (await callApi('/account/pay-method', payMethodListResponse, { body: {}, signal })).methods.filter(
            (method) => method.type === 'CC' && method.state === 'E' && method.validated !== '',
          ),
      },
    ],
  });
