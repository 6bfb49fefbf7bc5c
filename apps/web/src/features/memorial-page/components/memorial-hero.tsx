import { preload } from 'react-dom';
import { Link } from 'react-router';
import { Flame, Heart, Image as ImageIcon, MapPin, PenLine, Settings2 } from 'lucide-react';
import { routes, type MediaItem, type Memorial } from '@aandenken/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Container, Eyebrow } from '../../../components/ui/container.tsx';
import { formatCount } from '../../../lib/format.ts';
import { fullName, initialsOf, lifeDescription, lifePlaces, lifeYears } from '../../../lib/memorials/life.ts';
import type { Viewer } from '../viewer.ts';
import { ShareButton } from '../share/share-button.tsx';
import { CANDLE_FORM_ANCHOR, CANDLE_NAME_ID } from './candle-ids.ts';

/** The head of the page, in the spirit of the landing page's demo: portrait, name, years, places, quote. */
export function MemorialHero({
  memorial,
  cover,
  viewer,
  onAddMemory,
}: {
  memorial: Memorial;
  cover: MediaItem | null;
  viewer: Viewer;
  onAddMemory: () => void;
}) {
  const years = lifeYears(memorial);
  const places = lifePlaces(memorial);
  const spoken = lifeDescription(memorial);
  const name = fullName(memorial);

  return (
    <header className="relative overflow-hidden border-b border-border bg-background-soft">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_28rem_at_20%_0%,color-mix(in_srgb,var(--primary)_12%,transparent),transparent),radial-gradient(40rem_24rem_at_100%_100%,color-mix(in_srgb,var(--accent)_10%,transparent),transparent)]"
      />
      <Container className="relative grid items-center gap-8 py-10 sm:py-14 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-14 lg:py-20">
        <div className="mx-auto w-full max-w-[17rem] sm:max-w-xs lg:max-w-none">
          {cover ? (
            <CoverPhoto
              item={cover}
              alt={cover.caption ? `Portretfoto: ${cover.caption}` : `Foto van ${name}`}
            />
          ) : (
            <div
              aria-hidden
              className="flex aspect-[4/5] items-center justify-center rounded-[2rem] bg-[linear-gradient(160deg,color-mix(in_srgb,var(--primary)_22%,var(--card)),color-mix(in_srgb,var(--accent)_18%,var(--card)))] shadow-soft ring-1 ring-border"
            >
              <span className="font-serif text-7xl font-semibold text-foreground/70">{initialsOf(name)}</span>
            </div>
          )}
        </div>

        <div className="text-center lg:text-left">
          <Eyebrow>Ter nagedachtenis aan</Eyebrow>
          <h1 id="memorial-name" className="mt-3 text-4xl font-semibold sm:text-5xl lg:text-6xl">
            {name}
          </h1>
          {years && (
            <p className="mt-3 text-lg tracking-[0.2em] text-accent">
              <span aria-hidden>{years}</span>
              <span className="sr-only">{spoken}</span>
            </p>
          )}
          {places && (
            <p aria-hidden={!!years} className="mt-2 inline-flex items-center gap-1.5 text-muted">
              <MapPin aria-hidden className="h-4 w-4" />
              {places}
            </p>
          )}
          {memorial.quote && (
            <blockquote className="mx-auto mt-7 max-w-xl font-serif text-xl leading-relaxed text-foreground/90 italic sm:text-2xl lg:mx-0">
              “{memorial.quote}”
            </blockquote>
          )}

          <div className="mt-8 flex flex-wrap justify-center gap-3 lg:justify-start">
            {viewer.canLightCandle && (
              // To the form, its name field focused (public/boot.js): a tap opens the keyboard at once.
              <a
                href={`#${CANDLE_FORM_ANCHOR}`}
                data-focus={CANDLE_NAME_ID}
                className={buttonClass('primary', 'lg')}
              >
                <Flame aria-hidden className="h-4 w-4" />
                Steek een kaarsje aan
              </a>
            )}
            {viewer.canAddMemory && (
              <Button variant="secondary" size="lg" onClick={onAddMemory}>
                <PenLine aria-hidden className="h-4 w-4" />
                Deel een herinnering
              </Button>
            )}
            {/* A concept is seen by its makers only: nothing to share yet. */}
            {memorial.status !== 'concept' && <ShareButton memorial={memorial} />}
            {viewer.canManage && (
              <Link to={routes.memorialManage(memorial.id)} className={buttonClass('outline', 'lg')}>
                <Settings2 aria-hidden className="h-4 w-4" />
                Beheren
              </Link>
            )}
          </div>

          <ul
            aria-label="Op deze pagina"
            className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted lg:justify-start"
          >
            <li className="inline-flex items-center gap-1.5">
              <Heart aria-hidden className="h-4 w-4 text-accent" />
              {formatCount(memorial.counts.memories, 'herinnering', 'herinneringen')}
            </li>
            <li className="inline-flex items-center gap-1.5">
              <Flame aria-hidden className="h-4 w-4 text-accent" />
              {formatCount(memorial.counts.candles, 'kaarsje of bloem', 'kaarsjes en bloemen')}
            </li>
            <li className="inline-flex items-center gap-1.5">
              <ImageIcon aria-hidden className="h-4 w-4 text-accent" />
              {formatCount(memorial.counts.media, 'foto', "foto's")}
            </li>
          </ul>
          {memorial.caredBy && (
            <p className="mt-4 text-sm text-muted">
              Verzorgd door {/* The company's public page is rendered on the server: a whole navigation. */}
              <a
                href={`/uitvaartondernemers/${encodeURIComponent(memorial.caredBy.slug)}`}
                className="font-medium text-foreground underline underline-offset-4 hover:text-primary"
              >
                {memorial.caredBy.name}
              </a>
            </p>
          )}
        </div>
      </Container>
    </header>
  );
}

const COVER_SIZES = '(min-width: 1024px) 420px, 320px';

/**
 * The portrait: the page's largest paint. Unlike MediaImage it shows as soon as it is there, without
 * waiting for JavaScript to fade it in, and the server-rendered page asks for it first (a preload in the
 * head, ahead of the scripts).
 */
function CoverPhoto({ item, alt }: { item: MediaItem; alt: string }) {
  const src = item.fallbackUrl ?? item.url;
  const webp = item.srcSet?.webp || undefined;
  const jpeg = item.srcSet?.jpeg || undefined;
  preload(src, {
    as: 'image',
    fetchPriority: 'high',
    imageSrcSet: webp ?? jpeg,
    imageSizes: COVER_SIZES,
    ...(webp ? { type: 'image/webp' } : {}),
  });
  return (
    <div className="relative aspect-[4/5] overflow-hidden rounded-[2rem] bg-secondary shadow-lift ring-1 ring-border">
      <picture>
        {webp && <source type="image/webp" srcSet={webp} sizes={COVER_SIZES} />}
        <img
          src={src}
          srcSet={jpeg}
          sizes={COVER_SIZES}
          width={item.width ?? undefined}
          height={item.height ?? undefined}
          alt={alt}
          loading="eager"
          fetchPriority="high"
          draggable={false}
          className="h-full w-full object-cover"
        />
      </picture>
    </div>
  );
}
