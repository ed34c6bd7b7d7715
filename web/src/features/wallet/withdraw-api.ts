import {
  payMethodListResponse,
  securitySettingsResponse,
  withdrawResponse,
  type PaymentMethod,
  type WithdrawRequest,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { walletKeys } from './wallet-store.ts';

/** Where money can be withdrawn to: the stored cards and bank accounts shown on Payment Methods (spec §4: state E, validated). */
export const useWithdrawDestinations = () =>
  useQuery({
    queryKey: walletKeys.withdrawDestinations(),
    queryFn: async ({ signal }): Promise<PaymentMethod[]> =>
      (await callApi('/account/pay-method', payMethodListResponse, { body: {}, signal })).methods.filter(
        (method) => method.state === 'E' && method.validated !== '',
      ),
  });

/** Whether a withdrawal needs the PIN (once one is set, it does). */
export const usePinIsSet = () =>
  useQuery({
    queryKey: walletKeys.pinSet(),
    queryFn: async ({ signal }) =>
      (await callApi('/user/security-settings', securitySettingsResponse, { signal })).pin_set,
  });

/**
 * POST /api/account/withdraw with the attempt's Idempotency-Key: the money is
 * reserved once, whatever the retries. Answers the transaction, the quote of
 * coins, and the payout ("Visa •••• 4242", the cash); the wallet's reads are
 * stale after it.
 */
export async function withdraw(request: WithdrawRequest, idempotencyKey: string) {
  try {
    return await callApi('/account/withdraw', withdrawResponse, { body: request, idempotencyKey });
  } finally {
    void queryClient.invalidateQueries({ queryKey: walletKeys.balance(), refetchType: 'all' });
    void queryClient.invalidateQueries({ queryKey: walletKeys.recent() });
  }
}
