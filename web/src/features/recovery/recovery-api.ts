import {
  recoveryCodeCheckedResponse,
  recoveryEmailResponse,
  recoveryStepResponse,
  type CheckRecoveryCodeRequest,
  type ResetPasswordRequest,
  type SecurityQuestion,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/** Step 1: the masked address the code will go to. */
export const recoveryEmail = async (username: string) =>
  (await callApi('/user/get-recovery-email', recoveryEmailResponse, { body: { username } })).email;
/** Steps 2 and 3 (Resend Recovery Code repeats it). */
export const sendRecoveryCode = async (username: string) => {
  await callApi('/user/send-recovery-code', recoveryStepResponse, { body: { username } });
};
/** Step 3: the code checked; the security questions the user chose, none when they chose none. */
export const checkRecoveryCode = async (request: CheckRecoveryCodeRequest): Promise<SecurityQuestion[]> =>
  (await callApi('/user/check-recovery-code', recoveryCodeCheckedResponse, { body: request })).security_questions ?? [];
export const resetPassword = async (request: ResetPasswordRequest) => {
  await callApi('/user/reset-password', recoveryStepResponse, { body: request });
};
