import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { ArrowRight, KeyRound } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../components/ui/button.tsx';

/** '93307666' as the card prints it: '9330 7666'. */
const grouped = (code: string) => code.replace(/^(\d{4})(\d{4})$/, '$1 $2');

/**
 * After taking the page over without the company: the page's new access code, once, with the way to
 * the page. The heading takes the focus, so a screen reader says what happened.
 */
export function HandedOver({
  memorialId,
  memorialName,
  companyName,
  newAccessCode,
}: {
  memorialId: string;
  memorialName: string;
  companyName: string;
  newAccessCode: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-center overflow-hidden py-16">
      <title>Pagina overgenomen · Aandenken</title>
      <div className="relative mx-auto w-full max-w-xl px-5">
        <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-lift sm:p-10">
          <div className="flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            <KeyRound aria-hidden className="h-6 w-6" />
          </div>
          <h1 ref={heading} tabIndex={-1} className="mt-6 text-3xl font-semibold outline-none">
            De pagina is van jou
          </h1>
          <p className="mt-3 leading-relaxed text-muted">
            Je bent nu de eigenaar van de gedenkpagina van{' '}
            <strong className="font-semibold text-foreground">{memorialName}</strong>. De pagina heeft een
            nieuwe toegangscode:
          </p>
          <p className="mt-5 rounded-2xl border border-border bg-background-soft px-6 py-4 text-center font-mono text-3xl font-semibold tracking-[0.2em] tabular-nums select-all sm:text-4xl">
            <span className="sr-only">Nieuwe toegangscode: </span>
            <span data-testid="new-access-code">{grouped(newAccessCode)}</span>
          </p>
          <p className="mt-5 text-sm leading-relaxed text-muted">
            De code die {companyName} kende, werkt niet meer. Deel de nieuwe alleen met mensen die de pagina
            mogen zien. Je vindt hem later ook bij het beheer van de pagina, onder ‘Privacy en toegang’.
          </p>
          <Link to={routes.memorial(memorialId)} replace className={buttonClass('primary', 'lg', 'mt-8')}>
            <ArrowRight aria-hidden className="h-4 w-4" />
            Naar de pagina
          </Link>
        </div>
      </div>
    </section>
  );
}
