export { banOrRequest } from './ban-requests.ts';
export { type CorrectionLimits, defaultCorrectionLimits, requestCorrection } from './corrections.ts';
export { makeFinanceOperator, requireFinanceOperator } from './operator.ts';
export { operationRoutes } from './routes.ts';
export { createStaffUser, generatedPassword, staffSignUp } from './staff-accounts.ts';
