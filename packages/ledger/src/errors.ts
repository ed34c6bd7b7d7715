import type { RefusalCode } from './words.ts';

/**
 * A command the ledger refuses: nothing was written. `code` names the rule
 * (the HTTP contracts map it to the error catalogue's code and text),
 * `detail` what exactly was wrong (for logs and operators).
 */
export class LedgerRuleViolation extends Error {
  readonly code: RefusalCode;
  readonly detail: string;
  constructor(code: RefusalCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'LedgerRuleViolation';
    this.code = code;
    this.detail = detail;
  }
}

export function refuse(code: RefusalCode, detail: string): never {
  throw new LedgerRuleViolation(code, detail);
}
