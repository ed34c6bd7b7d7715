import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLsn, lagMs, laterWrite, parseLsn, positionAfter, readTarget, type RouteInput } from './read-routing.ts';

const base: RouteInput = {
  standby: { at: 1_000, replayLsn: 500n },
  lagMs: 0,
  lastWrite: undefined,
  now: 1_050,
  maxLagMs: 1_000,
  staleAfterMs: 1_000,
};

describe('parseLsn', () => {
  it('reads both halves as hex and orders as the WAL does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('writes the text it reads', () => {
    expect(formatLsn(parseLsn('16/B374D848'))).toBe('16/B374D848');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (lsn) => {
        expect(parseLsn(formatLsn(lsn))).toBe(lsn);
      }),
    );
  });

  it('refuses what is not a WAL position', () => {
    expect(() => parseLsn('16B374D848')).toThrow(RangeError);
    expect(() => parseLsn('0/XYZ')).toThrow(RangeError);
  });

  it('keeps the order of any two positions', () => {
    const half = fc.integer({ min: 0, max: 0xffffffff });
    fc.assert(
      fc.property(half, half, half, half, (a, b, c, d) => {
        const text = (high: number, low: number) => `${high.toString(16)}/${low.toString(16).toUpperCase()}`;
        const left = parseLsn(text(a, b));
        const right = parseLsn(text(c, d));
        expect(left < right).toBe(a < c || (a === c && b < d));
      }),
    );
  });
});

describe('lagMs', () => {
  const primary = [
    { at: 0, lsn: 100n },
    { at: 100, lsn: 200n },
    { at: 200, lsn: 300n },
  ];

  it('is nothing when the standby has replayed all the primary had', () => {
    expect(lagMs(primary, { at: 250, replayLsn: 300n })).toBe(0);
    expect(lagMs(primary, { at: 250, replayLsn: 400n })).toBe(0);
  });

  it('runs from the oldest primary position the standby has not replayed', () => {
    expect(lagMs(primary, { at: 250, replayLsn: 250n })).toBe(50);
    expect(lagMs(primary, { at: 250, replayLsn: 150n })).toBe(150);
    // Beyond the oldest kept sample: at least that old.
    expect(lagMs(primary, { at: 250, replayLsn: 50n })).toBe(250);
  });

  it('is nothing for a server that is not in recovery', () => {
    expect(lagMs(primary, { at: 250, replayLsn: null })).toBe(0);
  });

  it('is nothing on an idle pair, however long ago the last write was', () => {
    const idle = [
      { at: 0, lsn: 100n },
      { at: 60_000, lsn: 100n },
    ];
    expect(lagMs(idle, { at: 60_000, replayLsn: 100n })).toBe(0);
  });
});

describe('positionAfter', () => {
  const primary = [
    { at: 0, lsn: 100n },
    { at: 100, lsn: 200n },
  ];
  it('is the first position sampled at or after the write ended', () => {
    expect(positionAfter(primary, 0)).toBe(100n);
    expect(positionAfter(primary, 50)).toBe(200n);
    expect(positionAfter(primary, 100)).toBe(200n);
  });
  it('is unknown until a sample is taken after the write', () => {
    expect(positionAfter(primary, 101)).toBeUndefined();
  });
});

describe('laterWrite', () => {
  it('takes the later of the remembered write and the one the caller brought', () => {
    expect(laterWrite(undefined, undefined)).toBeUndefined();
    expect(laterWrite(undefined, 7n)).toEqual({ wroteAt: 0, lsn: 7n });
    expect(laterWrite({ wroteAt: 5, lsn: 9n }, 7n)).toEqual({ wroteAt: 5, lsn: 9n });
    expect(laterWrite({ wroteAt: 5, lsn: 3n }, 7n)).toEqual({ wroteAt: 5, lsn: 7n });
  });

  it('keeps a remembered write not sampled yet unknown, whatever was brought', () => {
    expect(laterWrite({ wroteAt: 5 }, 7n)).toEqual({ wroteAt: 5 });
  });
});

describe('readTarget', () => {
  it('sends to the standby someone who has not written', () => {
    expect(readTarget(base)).toBe('standby');
  });

  it('keeps on the primary a person whose write the standby has not replayed', () => {
    expect(readTarget({ ...base, lastWrite: { wroteAt: 900, lsn: 501n } })).toBe('primary');
  });

  it('sends to the standby once it has replayed past the write', () => {
    expect(readTarget({ ...base, lastWrite: { wroteAt: 900, lsn: 500n } })).toBe('standby');
    expect(readTarget({ ...base, lastWrite: { wroteAt: 900, lsn: 10n } })).toBe('standby');
  });

  it('keeps on the primary a write whose position is not sampled yet', () => {
    expect(readTarget({ ...base, lastWrite: { wroteAt: 1_040 } })).toBe('primary');
  });

  it('skips a standby further behind than the bound', () => {
    expect(readTarget({ ...base, lagMs: 1_001 })).toBe('primary');
    expect(readTarget({ ...base, lagMs: 1_000 })).toBe('standby');
  });

  it('skips a standby that was not reached, or not lately', () => {
    expect(readTarget({ ...base, standby: null })).toBe('primary');
    expect(readTarget({ ...base, now: 2_001 })).toBe('primary');
  });

  it('reads from a promoted standby (no longer in recovery) whatever was written', () => {
    expect(readTarget({ ...base, standby: { at: 1_000, replayLsn: null }, lastWrite: { wroteAt: 1_040 } })).toBe(
      'standby',
    );
  });

  it('never sends a read to a standby that has not replayed the reader’s write', () => {
    const lsn = fc.bigInt({ min: 0n, max: 1n << 40n });
    fc.assert(
      fc.property(lsn, lsn, fc.nat(5_000), (replayed, written, lag) => {
        const target = readTarget({
          ...base,
          standby: { at: 1_000, replayLsn: replayed },
          lagMs: lag,
          lastWrite: { wroteAt: 900, lsn: written },
        });
        if (target === 'standby') {
          expect(replayed >= written && lag <= base.maxLagMs).toBe(true);
        } else {
          expect(replayed < written || lag > base.maxLagMs).toBe(true);
        }
      }),
    );
  });
});
