import { describe, expect, it } from 'vitest';
import { imageKindOf, reencode } from './image.ts';
import { fakeJpeg, jpegWithExif, png } from '../../testing/uploads.ts';

describe('imageKindOf', () => {
  it.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00], 'png'],
    [[0xff, 0xd8], null],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a], null],
    [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], null],
    [[], null],
  ])('%j is %s', (bytes, kind) => {
    expect(imageKindOf(Uint8Array.from(bytes))).toBe(kind);
  });
});

describe('reencode', () => {
  it('refuses bytes that do not decode as the kind they claim', async () => {
    expect(await reencode(fakeJpeg(500), 'jpeg', 100)).toBeNull();
    expect(await reencode(await png(10, 10), 'jpeg', 100)).toBeNull();
  });

  it('fits an image within the bound and keeps its format', async () => {
    const out = await reencode(await jpegWithExif(300, 100), 'jpeg', 150);
    expect(out?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(out?.includes('exif-secret-marker')).toBe(false);
  });
});
