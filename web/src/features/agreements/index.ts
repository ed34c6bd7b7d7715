/** What other features may use of the agreements: the profile's Agreements tab and the dashboard's pending agreement. */
export { AgreementsTable } from './AgreementsPage.tsx';
export { PendingAgreement } from './PendingAgreement.tsx';
