import { describe, expect, it } from 'vitest';
import { untilDatabaseAnswers } from './database-wait.ts';
import { NoSuitableHost } from './session-target.ts';

/** A clock that moves only when the wait sleeps. */
function fakeTime() {
  let clock = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => clock,
    sleep: (ms: number) => {
      pauses.push(ms);
      clock += ms;
      return Promise.resolve();
    },
  };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6201'), { code: 'ECONNREFUSED' });
const silent = { warn: () => undefined };

describe('untilDatabaseAnswers', () => {
  it('tries again while no host is reachable or writable, pausing longer each time', async () => {
    const time = fakeTime();
    const failures = [refused(), new NoSuitableHost('read-write', ['127.0.0.1:6201']), refused(), refused(), refused()];
    let tries = 0;
    const answer = await untilDatabaseAnswers(
      () => {
        tries += 1;
        const failure = failures.shift();
        return failure ? Promise.reject(failure) : Promise.resolve('migrated');
      },
      { waitMs: 60_000, log: silent, ...time },
    );
    expect(answer).toBe('migrated');
    expect(tries).toBe(6);
    expect(time.pauses).toEqual([500, 1_000, 2_000, 4_000, 5_000]);
  });

  it('gives up with the last failure once the wait is over', async () => {
    const time = fakeTime();
    let tries = 0;
    const attempt = () => {
      tries += 1;
      return Promise.reject(refused());
    };
    await expect(untilDatabaseAnswers(attempt, { waitMs: 10_000, log: silent, ...time })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(time.pauses).toEqual([500, 1_000, 2_000, 4_000]);
    expect(tries).toBe(5);
  });

  it('does not wait on a failure that is not the database being away', async () => {
    const time = fakeTime();
    const broken = Object.assign(new Error('relation "events" does not exist'), { code: '42P01' });
    await expect(
      untilDatabaseAnswers(() => Promise.reject(broken), { waitMs: 60_000, log: silent, ...time }),
    ).rejects.toBe(broken);
    expect(time.pauses).toEqual([]);
  });
});
