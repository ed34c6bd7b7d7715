import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { stateWord } from './words.ts';

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

/** A short label in a tone; the words carry the meaning, the colour only repeats it. */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** The tone of a state the ledger or a payment goes through (entered, processed, failed…). */
export function statusTone(status: string): Tone {
  const word = status.toLowerCase();
  if (/(processed|completed|settled|succeeded|paid|released|active|verified|delivered)/.test(word)) return 'success';
  if (/(failed|rejected|declined|cancel|reversed|refused|disabled)/.test(word)) return 'danger';
  if (/(entered|pending|hold|waiting|processing|queued)/.test(word)) return 'warning';
  return 'neutral';
}

/** A state as a pill: its words (the shared dictionary's unless given), in the tone of what it means. */
export function StatusPill({ status, children }: { status: string; children?: ReactNode }) {
  // Read for its language: a language change re-renders the pill.
  useTranslation();
  return <Badge tone={statusTone(status)}>{children ?? stateWord(status)}</Badge>;
}
