import {
  agreementListResponse,
  agreementLookupResponse,
  updateAgreementResponse,
  type Agreement,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** The agreements feature's query keys: every read of it sits under `all`. */
export const agreementKeys = {
  all: ['agreements'] as const,
  list: () => [...agreementKeys.all, 'list'] as const,
  pending: (userId: number) => [...agreementKeys.all, 'pending', userId] as const,
};

const listAgreements = async (filter: { valid_only?: boolean; agreed_to?: boolean }, signal: AbortSignal) =>
  (await callApi('/agreement/agreement-list', agreementListResponse, { body: filter, signal })).agreements;
const lookUpAgreement = async (id: number, signal: AbortSignal) =>
  (await callApi('/agreement/agreement-lookup', agreementLookupResponse, { query: { id }, signal })).agreement;

/** Every agreement of the signed-in user, agreed or not (the table of /agreement and the profile's tab). */
export const useAgreements = () =>
  useQuery({ queryKey: agreementKeys.list(), queryFn: ({ signal }) => listAgreements({}, signal) });

/** The first valid agreement the user has not agreed to, looked up in full, or null when there is none (spec §4). */
export async function firstPendingAgreement(signal: AbortSignal): Promise<Agreement | null> {
  const [first] = await listAgreements({ valid_only: true, agreed_to: false }, signal);
  return first ? lookUpAgreement(first.agreement_id, signal) : null;
}

/** After an agreement is accepted or skipped, the lists are read again. */
const changed = (agreement: Agreement): Agreement => {
  void queryClient.invalidateQueries({ queryKey: agreementKeys.all });
  return agreement;
};

export const acceptAgreement = async (agreement: Agreement) =>
  changed(
    (
      await callApi('/agreement/update-agreement', updateAgreementResponse, {
        body: { agreement_id: agreement.agreement_id, agreed_to: true },
      })
    ).agreement,
  );
export const skipAgreement = async (agreement: Agreement) =>
  changed(
    (
      await callApi('/agreement/update-agreement', updateAgreementResponse, {
        body: { agreement_id: agreement.agreement_id, skip: true },
      })
    ).agreement,
  );
