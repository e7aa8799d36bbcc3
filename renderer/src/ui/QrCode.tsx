// A QR code drawn as an SVG image, made in the browser (the qrcode library loads only where one is
// shown): the end of setup and Admin › Connectivity show the address a phone opens.
import { useEffect, useState, type ReactElement } from 'react';

/** A QR code drawn as an SVG image (made in the browser; the qrcode library loads only here). */
export function QrCode({ text, className, testId }: { text: string; className: string; testId?: string }): ReactElement {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }))
      .then((s) => {
        if (live) setSvg(s);
      })
      // without the code the address above is still there to type
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  if (!svg) return <div className={className} aria-hidden="true" />;
  return (
    <img
      className={className}
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={`QR code that opens ${text}`}
      width={176}
      height={176}
      data-testid={testId}
    />
  );
}
