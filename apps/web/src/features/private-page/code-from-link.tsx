import { useEffect, useRef } from 'react';
import { useFormContext } from 'react-hook-form';
import { formatAccessCode } from '@aandenken/contract';

/** The code in a link's fragment (`/beslotenpagina#code=12345678`, as the printed card's QR code has it). */
export function codeFromHash(hash: string): string | null {
  return /^#code=(\d{8})$/.exec(hash)?.[1] ?? null;
}

/**
 * Fills in and submits the code from the link once, then takes it out of the address bar. A fragment is
 * never sent to a server, so the code stays out of request logs.
 */
export function CodeFromLink() {
  const { setValue } = useFormContext<{ accessCode: string }>();
  const ref = useRef<HTMLSpanElement>(null);
  const done = useRef(false);
  useEffect(() => {
    const code = codeFromHash(window.location.hash);
    if (!code || done.current) return;
    done.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    setValue('accessCode', formatAccessCode(code));
    ref.current?.closest('form')?.requestSubmit();
  }, [setValue]);
  return <span ref={ref} hidden />;
}
