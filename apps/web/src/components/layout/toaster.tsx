import { useEffect } from 'react';
import { Toaster as Sonner } from 'sonner';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '@aandenken/contract';
import { useTheme } from '../../lib/theme.ts';
import { toasterMounted } from '../../lib/toast.ts';

/** sonner's toaster, loaded with the first toast (lib/toast.ts). */
export default function Toaster() {
  const theme = useTheme();
  useEffect(() => toasterMounted(), []);
  return (
    <Sonner
      theme={theme}
      position="bottom-center"
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      swipeDirections={['right', 'left']}
      toastOptions={{ className: 'font-sans' }}
      richColors
      closeButton
      containerAriaLabel="Meldingen"
    />
  );
}
