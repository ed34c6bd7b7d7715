import { randomBytes } from 'node:crypto';

/** Standard Webhooks signing keys are "whsec_" and base64 of 24 to 64 random bytes; 32 here. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
