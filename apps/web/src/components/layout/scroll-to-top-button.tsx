import { ArrowUp } from './shell-icons.tsx';

/** The button of ScrollToTop (scroll-to-top.tsx), loaded the first time a page is scrolled that far. */
export function ScrollToTopButton() {
  return (
    <button
      type="button"
      aria-label="Terug naar boven"
      title="Terug naar boven"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      className="fixed right-5 bottom-5 z-30 flex h-12 w-12 animate-rise-in cursor-pointer items-center justify-center rounded-full border border-border bg-card text-foreground shadow-lift transition-colors hover:bg-secondary sm:right-8 sm:bottom-8"
    >
      <ArrowUp aria-hidden className="h-5 w-5" />
    </button>
  );
}
