import { Link } from 'react-router';
import { KeyRound, LogIn, MailQuestionMark } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';

/**
 * The one-time link from a mail (`#gasttoken=`) no longer opens the page: it was used, has expired, or its
 * invitation was accepted or withdrawn. Said calmly, with what the visitor can do; like the page for a
 * private memorial, it never tells whether the page exists.
 */
export function DeadLink({ memorialId }: { memorialId: string }) {
  const auth = useAuth();
  return (
    <section
      aria-labelledby="dead-link-title"
      className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center"
    >
      <title>Link niet meer geldig · Aandenken</title>
      <div className="flex h-16 w-16 items-center justify-center rounded-2xl bg-accent-soft text-accent">
        <MailQuestionMark aria-hidden className="h-7 w-7" />
      </div>
      <h1 id="dead-link-title" className="mt-6 text-3xl sm:text-4xl">
        Deze link is niet meer geldig
      </h1>
      <p className="mt-4 text-lg leading-relaxed text-muted">
        Een link uit een uitnodiging of toegangsmail werkt één keer, en niet meer als de uitnodiging is
        aangenomen of ingetrokken.
      </p>
      <p className="mt-3 text-lg leading-relaxed text-muted">
        Heb je een toegangscode van 8 cijfers gekregen? Vul die dan in. Anders kun je de familie om een nieuwe
        uitnodiging vragen.
      </p>
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Link to={routes.privatePage} className={buttonClass('primary', 'lg')}>
          <KeyRound aria-hidden className="h-4 w-4" />
          Toegangscode invullen
        </Link>
        {auth.status === 'unauthenticated' && (
          <Button
            variant="outline"
            size="lg"
            onClick={() => void auth.signIn({ returnUrl: routes.memorial(memorialId) })}
          >
            <LogIn aria-hidden className="h-4 w-4" />
            Inloggen
          </Button>
        )}
      </div>
      {auth.status === 'unauthenticated' && (
        <p className="mt-6 text-sm text-muted">
          Heb je de uitnodiging al aangenomen? Log dan in om de pagina te openen.
        </p>
      )}
    </section>
  );
}
