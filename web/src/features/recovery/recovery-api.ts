import {
  recoveryEmailResponse,
  recoveryStepResponse,
  type CheckRecoveryCodeRequest,
  type ResetPasswordRequest,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/** Step 1: the masked address the code will go to. */
export const recoveryEmail = async (username: string) =>
  (await callApi('/user/get-recovery-email', recoveryEmailResponse, { body: { username } })).email;
/** Steps 2 and 3 (Resend Recovery Code repeats it). */
export const sendRecoveryCode = async (username: string) => {
  await callApi('/user/send-recovery-code', recoveryStepResponse, { body: { username } });
};
export const checkRecoveryCode = async (request: CheckRecoveryCodeRequest) => {
  await callApi('/user/check-recovery-code', recoveryStepResponse, { body: request });
};
export const resetPassword = async (request: ResetPasswordRequest) => {
  await callApi('/user/reset-password', recoveryStepResponse, { body: request });
};
