import { transferLinkForScan } from '@peeks/contracts';

/**
 * The Generate QR code amount field lets only digits and one decimal point
 * be typed (spec §5): given the field's text before and after an edit, the
 * text to keep. Anything else typed or pasted is dropped, and a second point
 * is refused, so the field never holds what the form would reject for its
 * characters.
 */
export function keepTypedAmount(previous: string, next: string): string {
  const kept = next.replace(/[^\d.]/g, '');
  return (kept.match(/\./g) ?? []).length > 1 ? previous : kept;
}

/** Frames the scanner decodes a second (spec §2 Scan QR code) and the side of its square scan box in CSS pixels. */
export const SCAN_FPS = 10;
export const SCAN_BOX = 250;

/**
 * The square of a video frame the scanner reads: the centred box of
 * `SCAN_BOX` pixels as shown, in the frame's own pixels (a camera's frame is
 * usually larger than the element that shows it).
 */
export interface ScanRegion {
  x: number;
  y: number;
  size: number;
}

export function scanRegion(
  frame: { width: number; height: number },
  shown: { width: number; height: number },
): ScanRegion {
  const scale = shown.width > 0 ? frame.width / shown.width : 1;
  const size = Math.min(frame.width, frame.height, Math.round(SCAN_BOX * scale));
  return { x: Math.floor((frame.width - size) / 2), y: Math.floor((frame.height - size) / 2), size };
}

/** What a scanned text leads to: the Transfer fund page of the payment it names, or the scanner's Error. */
export type ScanOutcome = { go: string } | { error: 'not_a_payment' };

export function outcomeOfScan(text: string): ScanOutcome {
  const go = transferLinkForScan(text);
  return go === null ? { error: 'not_a_payment' } : { go };
}
