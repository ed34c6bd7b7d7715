import type jsQrModule from 'jsqr';
import type { ScanRegion } from './qr-rules.ts';

type JsQr = typeof jsQrModule;
let loading: Promise<JsQr> | null = null;

/** jsqr, fetched the first time the scanner decodes (it stays out of every other screen's load). */
function jsQr(): Promise<JsQr> {
  loading ??= import('jsqr').then((module) => module.default);
  return loading;
}

/**
 * The text of a QR code in `source` (a playing video or a loaded image),
 * read from `region` of it; null when none is found. One canvas per call is
 * cheap at 10 frames a second.
 */
export async function decodeQr(source: CanvasImageSource, region: ScanRegion): Promise<string | null> {
  const decode = await jsQr();
  const canvas = document.createElement('canvas');
  canvas.width = region.size;
  canvas.height = region.size;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, region.x, region.y, region.size, region.size, 0, 0, region.size, region.size);
  const pixels = context.getImageData(0, 0, region.size, region.size);
  return decode(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}
