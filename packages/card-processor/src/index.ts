export {
  CardProcessorUnavailable,
  PROCESSOR_UNAVAILABLE,
  sandboxCardCharges,
  type CardCharges,
  type CardOnFile,
  type ChargeOutcome,
  type ChargeRequest,
  type PartRefundOutcome,
  type PartRefundRequest,
  type SandboxCardChargesOptions,
} from './card-charges.ts';
export { chargeKeyFor, type Platform } from './charge-key.ts';
export {
  finishCardReturn,
  GIVE_UP_AFTER_MS,
  firstEvent,
  retryStalledCardReturns,
  stalledCardReturns,
  STALLED_AFTER_MS,
  type CardReturnDeps,
} from './card-returns.ts';
