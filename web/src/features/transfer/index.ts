/** What other screens may open from the transfer feature: the Send Funds dialog. */
export { SendFundsDialog } from './SendFundsDialog.tsx';
