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
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** The profile feature's query keys: what each tab lists, under `all`. */
export const profileKeys = {
  all: ['profile'] as const,
  addresses: () => [...profileKeys.all, 'addresses'] as const,
  terminals: (merchantId: number) => [...profileKeys.all, 'terminals', merchantId] as const,
  security: () => [...profileKeys.all, 'security'] as const,
  securityQuestions: () => [...profileKeys.all, 'security-questions'] as const,
  documents: () => [...profileKeys.all, 'documents'] as const,
  preferences: (userId: number) => [...profileKeys.all, 'preferences', userId] as const,
};

/** After a change succeeds, what it changed is read again. */
const changes =
  <Args extends unknown[], T>(queryKey: readonly unknown[], change: (...args: Args) => Promise<T>) =>
  async (...args: Args): Promise<T> => {
    const result = await change(...args);
    void queryClient.invalidateQueries({ queryKey });
    return result;
  };

const listAddresses = async () =>
  (await callApi('/user/address-list', addressListResponse, { query: { offset: 0, limit: 100 } })).address;
export const addAddress = changes(profileKeys.addresses(), (form: AddAddressRequest) =>
  callApi('/user/add-address', addressResponse, { body: form }),
);
export const updateAddress = changes(profileKeys.addresses(), (form: UpdateAddressRequest) =>
  callApi('/user/update-address', addressResponse, { body: form }),
);
export const deleteAddress = changes(profileKeys.addresses(), (addressId: number) =>
  callApi('/user/delete-address', addressDeletedResponse, { body: { address_id: addressId } }),
);

export const updateMerchant = (form: UpdateMerchantRequest) =>
  callApi('/merchant/update-merchant', updateMerchantResponse, { body: form });
const listTerminals = async (merchantId: number) =>
  (await callApi('/merchant-terminal/list', terminalListResponse, { query: { merchant_id: merchantId } }))
    .merchantTerminalList;
export const createTerminal = changes([...profileKeys.all, 'terminals'], (form: CreateTerminalRequest) =>
  callApi('/user/create-merchant-terminal', terminalResponse, { body: form }),
);
export const deleteTerminal = changes([...profileKeys.all, 'terminals'], (merchantTerminalId: number) =>
  callApi('/merchant-terminal/delete', emptySuccess, { body: { merchant_terminal_id: merchantTerminalId } }),
);

export const changePassword = (form: ChangePasswordRequest) =>
  callApi('/user/change-password', changePasswordResponse, { body: form });
const securitySettings = () => callApi('/user/security-settings', securitySettingsResponse);
const securityQuestions = async () =>
  (await callApi('/user/security-questions', securityQuestionListResponse)).questions;
export const setPin = changes(profileKeys.security(), (form: unknown) =>
  callApi('/user/set-pin', credentialChangedResponse, { body: form }),
);
export const changePin = changes(profileKeys.security(), (form: unknown) =>
  callApi('/user/change-pin', credentialChangedResponse, { body: form }),
);
export const setSecurityQuestions = changes(profileKeys.security(), (form: unknown) =>
  callApi('/user/set-security-questions', credentialChangedResponse, { body: form }),
);

const preferences = async (userId: number) =>
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

const listDocuments = async () => (await callApi('/user/document-list', documentListResponse)).documents;

export const uploadDocument = changes(profileKeys.documents(), (fields: Record<string, string>, file: File) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', file);
  return callApi('/user/upload-document', uploadDocumentResponse, { form });
});

export const useAddresses = () => useQuery({ queryKey: profileKeys.addresses(), queryFn: listAddresses });
export const useTerminals = (merchantId: number) =>
  useQuery({ queryKey: profileKeys.terminals(merchantId), queryFn: () => listTerminals(merchantId) });
export const useSecuritySettings = () => useQuery({ queryKey: profileKeys.security(), queryFn: securitySettings });
export const useSecurityQuestions = () =>
  useQuery({ queryKey: profileKeys.securityQuestions(), queryFn: securityQuestions });
export const usePreferences = (userId: number) =>
  useQuery({ queryKey: profileKeys.preferences(userId), queryFn: () => preferences(userId), enabled: userId > 0 });
export const useDocuments = () => useQuery({ queryKey: profileKeys.documents(), queryFn: listDocuments });
