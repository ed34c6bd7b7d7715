import { dateTimeLines } from '../lib/dates.ts';

/**
 * A date and time in a table cell. A narrow column breaks it where the time
 * begins ("Nov 21, 2026," over "3:04 PM"), never inside the date, which
 * would stand one word a line.
 */
export function When({ at }: { at: string }) {
  const [date, time] = dateTimeLines(at);
  return (
    <time className="when" dateTime={at}>
      <span>{date}</span> <span>{time}</span>
    </time>
  );
}
