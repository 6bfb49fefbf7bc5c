import { AlertCircle, RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/** The page could not be loaded for another reason than not being allowed (network, server). */
export function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <section
      role="alert"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center"
    >
      <AlertCircle aria-hidden className="h-10 w-10 text-danger" />
      <h1 className="mt-5 text-3xl">De pagina kon niet worden geladen</h1>
      <p className="mt-3 text-muted">{error.message}</p>
      <Button className="mt-8" onClick={onRetry}>
        <RefreshCw aria-hidden className="h-4 w-4" />
        Opnieuw proberen
      </Button>
    </section>
  );
}
