export { merchantPayee, payeePayment } from './payee.ts';
export { sendFundRoutes } from './routes.ts';
