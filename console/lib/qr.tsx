import { useEffect, useState } from 'react';

/**
 * A QR code drawn as SVG rectangles from the `qrcode` matrix: no canvas, no data: URL and no
 * inline style, so the strict CSP holds. Made in the page; the secret never leaves it. The
 * library is its own chunk, loaded when a QR code is first shown (the first page stays light).
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [matrix, setMatrix] = useState<{ size: number; data: Uint8Array } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(
      (QRCode) => live && setMatrix((QRCode.default ?? QRCode).create(text, { errorCorrectionLevel: 'M' }).modules),
    );
    return () => void (live = false);
  }, [text]);
  if (!matrix) return <p role="status">Drawing the QR code…</p>;
  const { size, data } = matrix;
  const cells: string[] = [];
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (data[y * size + x]) cells.push(`M${x + 4} ${y + 4}h1v1h-1z`);
  const full = size + 8;
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${full} ${full}`}
      width={full * 5}
      height={full * 5}
      shapeRendering="crispEdges"
    >
      <rect width={full} height={full} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}
