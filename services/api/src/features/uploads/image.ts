import sharp from 'sharp';

export type ImageKind = 'jpeg' | 'png';

export const contentTypeOf = { jpeg: 'image/jpeg', png: 'image/png' } as const satisfies Record<ImageKind, string>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_START = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);

/**
 * What an upload is by its first bytes, whatever its name or declared type
 * says: those are the client's to choose, the bytes are what gets decoded.
 */
export function imageKindOf(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, JPEG_START)) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  return null;
}

/**
 * Decoding bombs: a small file can declare a huge canvas. 40 megapixels is
 * well above any phone camera's photo and far below what would exhaust memory.
 */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * The image decoded and encoded again in its own format, turned upright and
 * fitted within `maxSide` pixels. Only pixels survive: EXIF (GPS position,
 * camera serial), comments and anything appended after the image are gone,
 * and what is stored and served is an image this library wrote, not the
 * client's bytes. Null when the bytes do not decode as `kind`.
 */
export async function reencode(bytes: Buffer, kind: ImageKind, maxSide: number): Promise<Buffer | null> {
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const { format } = await image.metadata();
    if (format !== kind) return null;
    const upright = image.rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    return await (kind === 'jpeg' ? upright.jpeg({ quality: 85 }) : upright.png()).toBuffer();
  } catch {
    // sharp reports a truncated, corrupt or oversized image as a plain Error; to the client all are "not an image".
    return null;
  }
}
