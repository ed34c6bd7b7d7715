/** The deposits' public surface: the Deposit dialog the dashboard card's Add Funds opens (loaded lazily by its caller). */
export { default as DepositDialogs } from './DepositDialogs.tsx';
