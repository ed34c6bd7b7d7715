import {
  agreementListResponse,
  agreementLookupResponse,
  updateAgreementResponse,
  type Agreement,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

export const listAgreements = async (filter: { valid_only?: boolean; agreed_to?: boolean } = {}) =>
  (await callApi('/agreement/agreement-list', agreementListResponse, { body: filter })).agreements;
export const lookUpAgreement = async (id: number) =>
  (await callApi('/agreement/agreement-lookup', agreementLookupResponse, { query: { id } })).agreement;
export const acceptAgreement = async (agreement: Agreement) =>
  (
    await callApi('/agreement/update-agreement', updateAgreementResponse, {
      body: { agreement_id: agreement.agreement_id, agreed_to: true },
    })
  ).agreement;
export const skipAgreement = async (agreement: Agreement) =>
  (
    await callApi('/agreement/update-agreement', updateAgreementResponse, {
      body: { agreement_id: agreement.agreement_id, skip: true },
    })
  ).agreement;
