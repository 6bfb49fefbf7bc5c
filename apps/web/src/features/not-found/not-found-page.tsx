import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../components/ui/button.tsx';

/** The site's not-found screen. */
export default function NotFoundPage() {
  return (
    <section className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center">
      <title>Pagina niet gevonden · Aandenken</title>
      <p
        aria-hidden
        className="font-serif text-[7rem] leading-none font-semibold text-primary/80 sm:text-[9rem]"
      >
        404
      </p>
      <h1 className="mt-6 text-3xl sm:text-4xl">
        <span className="sr-only">404: </span>Oeps! Pagina niet gevonden
      </h1>
      <p className="mt-4 text-lg text-muted">De pagina die je zoekt bestaat niet of is verplaatst.</p>
      <Link to={routes.home} className={buttonClass('primary', 'lg', 'mt-10')}>
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Ga terug naar de startpagina
      </Link>
    </section>
  );
}
