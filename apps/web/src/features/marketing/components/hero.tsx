import { Link } from 'react-router';
import { ArrowRight, Flame, Heart, KeyRound } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Picture } from '../../../components/ui/picture.tsx';
import { images } from '../../../content/images.ts';

export function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_80%_-10%,color-mix(in_srgb,var(--accent)_14%,transparent),transparent),radial-gradient(50rem_30rem_at_0%_10%,color-mix(in_srgb,var(--primary)_12%,transparent),transparent)]"
      />
      <Container className="relative grid items-center gap-12 py-16 sm:py-24 lg:grid-cols-[1.15fr_1fr] lg:py-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-border bg-card/60 px-3.5 py-1.5 text-sm text-muted">
            <Flame aria-hidden className="h-4 w-4 text-accent" />
            Online gedenkpagina’s voor wie je mist
          </p>
          <h1 className="mt-6 text-4xl leading-[1.1] font-semibold sm:text-5xl lg:text-6xl">
            Een plek waar herinneringen voortleven en liefde wordt gekoesterd
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-muted">
            Maak een persoonlijke gedenkpagina en verzamel samen met familie en vrienden herinneringen,
            foto’s, bloemen en verhalen. Rustig, veilig en in je eigen tempo.
          </p>
          <div className="mt-9 flex flex-col gap-3 sm:flex-row">
            <Link to={routes.createMemorial} className={buttonClass('primary', 'lg')}>
              Maak een pagina
              <ArrowRight aria-hidden className="h-4 w-4" />
            </Link>
            <Link to={routes.privatePage} className={buttonClass('outline', 'lg')}>
              <KeyRound aria-hidden className="h-4 w-4" />
              Bezoek besloten pagina
            </Link>
          </div>
        </div>
        <StackedCards />
      </Container>
    </section>
  );
}

/** Decorative: two memorial cards stacked, with a heart (large screens only). */
function StackedCards() {
  return (
    <div
      aria-hidden
      data-testid="stacked-cards"
      className="relative mx-auto hidden h-[30rem] w-full max-w-md lg:block"
    >
      <div className="absolute top-4 right-0 w-72 rotate-6 rounded-2xl border border-border bg-card p-3 shadow-lift">
        <Picture image={images.lake} sizes="288px" priority decorative className="aspect-[4/5] rounded-xl" />
        <div className="px-1 pt-3 pb-1">
          <div className="h-3 w-32 rounded-full bg-secondary" />
          <div className="mt-2 h-2.5 w-20 rounded-full bg-secondary" />
        </div>
      </div>
      <div className="absolute top-16 left-0 w-72 -rotate-3 rounded-2xl border border-border bg-card p-3 shadow-lift">
        <Picture
          image={images.emmaPortrait}
          sizes="288px"
          priority
          decorative
          className="aspect-[4/5] rounded-xl"
        />
        <div className="px-1 pt-3 pb-1">
          <p className="font-serif text-lg font-semibold">Emma</p>
          <p className="text-sm text-muted">1999 - 2024</p>
        </div>
      </div>
      <div className="absolute top-[21rem] left-60 flex h-16 w-16 items-center justify-center rounded-full bg-accent text-white shadow-lift dark:text-background">
        <Heart className="h-7 w-7 fill-current" />
      </div>
    </div>
  );
}
