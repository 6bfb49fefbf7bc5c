import { Link } from 'react-router';
import { KeyRound, LockKeyhole } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../ui/button.tsx';

/**
 * Shown when a memorial cannot be opened. It never tells whether a private page exists: a missing page,
 * a private one and one the visitor may not see all read the same.
 */
export function MemorialUnavailable({ expiredGuestAccess }: { expiredGuestAccess?: boolean }) {
  return (
    <section className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center">
      <title>Pagina niet beschikbaar · Aandenken</title>
      <div className="flex h-16 w-16 items-center justify-center rounded-2xl bg-accent-soft text-accent">
        <LockKeyhole aria-hidden className="h-7 w-7" />
      </div>
      <h1 className="mt-6 text-3xl sm:text-4xl">Deze pagina bestaat niet of is besloten</h1>
      <p className="mt-4 text-lg leading-relaxed text-muted">
        {expiredGuestAccess
          ? 'Je toegang met de toegangscode is verlopen. Vul de code opnieuw in om de pagina te openen.'
          : 'Heb je een toegangscode van 8 cijfers gekregen, per e-mail of op een kaartje? Vul die in om de besloten pagina te openen.'}
      </p>
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Link to={routes.privatePage} className={buttonClass('primary', 'lg')}>
          <KeyRound aria-hidden className="h-4 w-4" />
          Toegangscode invullen
        </Link>
        <Link to={routes.home} className={buttonClass('outline', 'lg')}>
          Naar de startpagina
        </Link>
      </div>
    </section>
  );
}
