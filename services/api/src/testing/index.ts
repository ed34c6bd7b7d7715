export { createTestApp, type TestApp } from './app.ts';
export { signedUp, testAppOptions, type SignedIn } from './merchants.ts';
export { signedUpOperator } from './operations.ts';
export { expectRefusal } from './requests.ts';
export { hook } from './webhooks.ts';
export { businessSignUp, queuedRecoveryCode } from './accounts.ts';
