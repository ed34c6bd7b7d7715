import { demoAddress } from '../demo-data.ts';

/** A valid Address modal form (the demo merchant's address); override any field. */
export const addressForm = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...demoAddress,
  ...overrides,
});
