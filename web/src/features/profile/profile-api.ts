import {
  addressDeletedResponse,
  addressListResponse,
  addressResponse,
  changePasswordResponse,
  credentialChangedResponse,
  documentListResponse,
  emptySuccess,
  getUserPrefsResponse,
  securityQuestionListResponse,
  securitySettingsResponse,
  terminalListResponse,
  terminalResponse,
  updateMerchantResponse,
  updateUserResponse,
  uploadAvatarResponse,
  uploadDocumentResponse,
  userConfigUpdateResponse,
  type AddAddressRequest,
  type ChangePasswordRequest,
  type CreateTerminalRequest,
  type UpdateAddressRequest,
  type UpdateMerchantRequest,
  type UpdateUserRequest,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

export const listAddresses = async () =>
  (await callApi('/user/address-list', addressListResponse, { query: { offset: 0, limit: 100 } })).address;
export const addAddress = (form: AddAddressRequest) => callApi('/user/add-address', addressResponse, { body: form });
export const updateAddress = (form: UpdateAddressRequest) =>
  callApi('/user/update-address', addressResponse, { body: form });
export const deleteAddress = (addressId: number) =>
  callApi('/user/delete-address', addressDeletedResponse, { body: { address_id: addressId } });

export const updateMerchant = (form: UpdateMerchantRequest) =>
  callApi('/merchant/update-merchant', updateMerchantResponse, { body: form });
export const listTerminals = async (merchantId: number) =>
  (await callApi('/merchant-terminal/list', terminalListResponse, { query: { merchant_id: merchantId } }))
    .merchantTerminalList;
export const createTerminal = (form: CreateTerminalRequest) =>
  callApi('/user/create-merchant-terminal', terminalResponse, { body: form });
export const deleteTerminal = (merchantTerminalId: number) =>
  callApi('/merchant-terminal/delete', emptySuccess, { body: { merchant_terminal_id: merchantTerminalId } });

export const changePassword = (form: ChangePasswordRequest) =>
  callApi('/user/change-password', changePasswordResponse, { body: form });
export const securitySettings = () => callApi('/user/security-settings', securitySettingsResponse);
export const securityQuestions = async () =>
  (await callApi('/user/security-questions', securityQuestionListResponse)).questions;
export const setPin = (form: unknown) => callApi('/user/set-pin', credentialChangedResponse, { body: form });
export const changePin = (form: unknown) => callApi('/user/change-pin', credentialChangedResponse, { body: form });
export const setSecurityQuestions = (form: unknown) =>
  callApi('/user/set-security-questions', credentialChangedResponse, { body: form });

export const preferences = async (userId: number) =>
  (await callApi('/user/get-user-prefs', getUserPrefsResponse, { body: { user_id: userId, section: ['all'] } }))
    .preferences;
export const setPreference = async (userId: number, key: string, enabled: boolean) =>
  (
    await callApi('/user/user-config-update', userConfigUpdateResponse, {
      body: { user_id: userId, config: { [key]: enabled } },
    })
  ).preferences;

export const updateUser = (form: UpdateUserRequest) => callApi('/user/update-user', updateUserResponse, { body: form });

/** POST /api/user/user-upload-avatar: the user's own photo, a .jpg or .jpeg (spec §2, §9). */
export async function uploadAvatar(userId: number, file: File) {
  const form = new FormData();
  form.append('user_id', String(userId));
  form.append('file', file);
  return callApi('/user/user-upload-avatar', uploadAvatarResponse, { form });
}

export const listDocuments = async () => (await callApi('/user/document-list', documentListResponse)).documents;

export async function uploadDocument(fields: Record<string, string>, file: File) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', file);
  return callApi('/user/upload-document', uploadDocumentResponse, { form });
}
