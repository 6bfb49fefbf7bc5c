import { RefreshCw } from './shell-icons.tsx';
import { Button } from '../ui/button.tsx';
import { Logo } from './logo.tsx';

/** Shown when a page cannot load (for example a new version was deployed while the tab was open). */
export function RouteError() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-6 text-center">
      <Logo />
      <h1 className="text-3xl">Er ging iets mis</h1>
      <p className="max-w-md text-muted">
        Deze pagina kon niet worden geladen. Probeer het opnieuw; lukt het dan nog niet, kom later terug.
      </p>
      <Button onClick={() => window.location.reload()}>
        <RefreshCw aria-hidden className="h-4 w-4" />
        Opnieuw laden
      </Button>
    </div>
  );
}
