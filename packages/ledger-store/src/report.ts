import type { LedgerReport } from './verify.ts';

/** A verification report as people read it: `npm run ledger:verify` prints it, the operations console shows it. */
export function describeLedgerReport(report: LedgerReport): string {
  const lines = [
    `Ledger verification: ${report.ok ? 'OK' : 'FAILED'}`,
    `  events replayed: ${report.eventsReplayed}`,
    `  hash chains: ${report.chains.streamsChecked} streams, ${report.chains.eventsChecked} events, ${report.chains.breaks.length} broken`,
    ...report.chains.breaks.map((broken) => `    ${broken.streamId} at version ${broken.version}: ${broken.reason}`),
    `  read models equal to a fresh rebuild: ${report.differences.length === 0 ? 'yes' : 'no'}`,
    ...report.differences.flatMap((difference) => [
      `    ${difference.table}: ${difference.extraInLive} rows only in the live table, ${difference.missingFromLive} only in the rebuild`,
      ...difference.samples.map((sample) => `      ${JSON.stringify(sample)}`),
    ]),
    `  invariants: ${report.invariantFailures.length === 0 ? 'all hold' : `${report.invariantFailures.length} broken`}`,
    ...report.invariantFailures.map((failure) => `    ${failure}`),
    `  ledger log: ${report.log.leaves} leaves, ${report.log.checkpointsChecked} checkpoints, signatures ${report.log.signaturesChecked ? 'checked' : 'not checked (no key)'}, ${report.log.problems.length === 0 ? 'all hold' : `${report.log.problems.length} problems`}`,
    ...(report.log.extends
      ? [`    extends the checkpoint of ${report.log.extends.treeSize} leaves from ${report.log.extends.source}`]
      : []),
    ...report.log.problems.map((problem) => `    ${problem}`),
  ];
  return `${lines.join('\n')}\n`;
}
