import {
  payMethodListResponse,
  securitySettingsResponse,
  transactionResponse,
  type PaymentMethod,
  type WithdrawRequest,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/** Where money can be withdrawn to: the stored cards and bank accounts shown on Payment Methods (spec §4: state E, validated). */
export async function withdrawDestinations(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const { methods } = await callApi('/account/pay-method', payMethodListResponse, {
    body: {},
    ...(signal ? { signal } : {}),
  });
  return methods.filter((method) => method.state === 'E' && method.validated !== '');
}

/** Whether a withdrawal needs the PIN (once one is set, it does). */
export async function pinIsSet(signal?: AbortSignal): Promise<boolean> {
  return (await callApi('/user/security-settings', securitySettingsResponse, signal ? { signal } : {})).pin_set;
}

/** POST /api/account/withdraw with the attempt's Idempotency-Key: the money is reserved once, whatever the retries. */
export const withdraw = async (request: WithdrawRequest, idempotencyKey: string) =>
  (await callApi('/account/withdraw', transactionResponse, { body: request, idempotencyKey })).transaction;
