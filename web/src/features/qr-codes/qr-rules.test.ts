import { describe, expect, it } from 'vitest';
import { keepTypedAmount, SCAN_BOX, scanRegion } from './qr-rules.ts';

describe('the Generate QR code amount field (spec §5: only digits and a decimal point)', () => {
  it.each([
    ['', '1', '1'],
    ['1', '12', '12'],
    ['12', '12.', '12.'],
    ['12.', '12.5', '12.5'],
    ['12.5', '12.5.', '12.5'],
    ['12', '12a', '12'],
    ['', '-5', '5'],
    ['', '1e3', '13'],
    ['', '$ 4.50', '4.50'],
    ['4.5', '4..5', '4.5'],
  ])('from %j, typing %j keeps %j', (previous, next, kept) => {
    expect(keepTypedAmount(previous, next)).toBe(kept);
  });
});

describe('the scan box', () => {
  it('is the centred 250-pixel square as shown, in the frame’s own pixels', () => {
    expect(scanRegion({ width: 640, height: 480 }, { width: 320, height: 240 })).toEqual({
      x: 80,
      y: 0,
      size: 480,
    });
    expect(scanRegion({ width: 1280, height: 720 }, { width: 1280, height: 720 })).toEqual({
      x: 515,
      y: 235,
      size: SCAN_BOX,
    });
  });
});
