import { useEffect, useState } from 'react';
import { cn } from '../../../lib/cn.ts';

/**
 * A QR code for `value`, drawn as SVG by the qrcode package (its own chunk, loaded when shown; no
 * third-party script or service). Dark on white in both themes, so phones read it from a screen too.
 */
export function QrCode({
  value,
  label,
  className,
  testId,
}: {
  value: string;
  label: string;
  className?: string;
  testId?: string;
}) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    void import('qrcode').then(({ default: QRCode }) =>
      QRCode.toString(value, {
        type: 'svg',
        margin: 2,
        errorCorrectionLevel: 'M',
        color: { dark: '#1d2226', light: '#ffffff' },
      }).then((s) => alive && setSvg(s)),
    );
    return () => {
      alive = false;
    };
  }, [value]);
  return (
    <div
      role="img"
      aria-label={label}
      data-testid={testId}
      data-target={value}
      className={cn('bg-white p-2 [&>svg]:h-full [&>svg]:w-full', className)}
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
