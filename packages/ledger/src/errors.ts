import type { RefusalCode } from './words.ts';

/**
 * A command the ledger refuses: nothing was written. `code` names the rule
 * (the HTTP contracts map it to the error catalogue's code and text),
 * `detail` what exactly was wrong (for logs and operators), and `from`,
 * where the rule stops refusing at a known time (coins bought by card
 * maturing), that time, so the person can be told.
 */
export class LedgerRuleViolation extends Error {
  readonly code: RefusalCode;
  readonly detail: string;
  readonly from: string | null;
  constructor(code: RefusalCode, detail: string, from: string | null = null) {
    super(`${code}: ${detail}`);
    this.name = 'LedgerRuleViolation';
    this.code = code;
    this.detail = detail;
    this.from = from;
  }
}

export function refuse(code: RefusalCode, detail: string, from: string | null = null): never {
  throw new LedgerRuleViolation(code, detail, from);
}
