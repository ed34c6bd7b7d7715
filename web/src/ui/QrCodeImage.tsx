import { useEffect, useState } from 'react';

/**
 * A QR code of `text`, drawn in the browser (no QR service sees the
 * payload), `size` CSS pixels square. qrcode is fetched the first time a QR
 * code is shown, so it stays out of the first load. Drawn as SVG: sharp at
 * any zoom and readable by a camera from the screen.
 */
export function QrCodeImage({ text, size, label }: { text: string; size: number; label: string }) {
  const [drawn, setDrawn] = useState<{ text: string; src: string } | null>(null);
  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (current) setDrawn({ text, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      });
    return () => {
      current = false;
    };
  }, [text]);
  const src = drawn?.text === text ? drawn.src : null;
  return src ? (
    <img className="qr-code" src={src} width={size} height={size} alt={label} data-qr-text={text} />
  ) : (
    <span className="qr-code" role="img" aria-label={label} aria-busy="true" style={{ width: size, height: size }} />
  );
}
