import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  AlertCircle,
  ChevronLeft,
  ChevronRight,
  Maximize,
  Music,
  Pause,
  Play,
  RefreshCw,
  Volume2,
  VolumeX,
  X,
} from 'lucide-react';
import {
  apiPaths,
  MEMORY_WALL_LIMIT_MAX,
  memoryPageSchema,
  routes,
  type Memorial,
  type PresentationMusic,
} from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { MemorialUnavailable } from '../../../components/memorial/memorial-unavailable.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageSpinner } from '../../../components/ui/spinner.tsx';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { readGuestAccess } from '../../../lib/memorials/guest-access.ts';
import { fullName, lifeYears } from '../../../lib/memorials/life.ts';
import { memorialKeys, useGallery, useMemorial } from '../../../lib/memorials/queries.ts';
import { GuestScope, useViewerScope } from '../../../lib/memorials/scope.tsx';
import { usePresentationInfo } from './api.ts';
import { buildChosenSlides, buildSlides, slideDuration, type Slide } from './slides.ts';
import './presentation.css';

/** Controls and the cursor hide after this long without the pointer moving. */
export const IDLE_MS = 3_000;

const isUnavailable = (error: Error) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * /memorial/{id}/presentatie: a full-screen slideshow of the page's photos and memories, for the screen at a
 * service. Whoever may see the page may play it (a private page with their membership or access code).
 */
export default function PresentationPage() {
  const { id = '' } = useParams();
  const auth = useAuth();
  const memorial = useMemorial(id, auth.status !== 'loading');
  const guest = useMemo(() => {
    const access = readGuestAccess();
    return access?.memorialId === id ? access : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again when the session changes
  }, [id, auth.status]);

  if (auth.status === 'loading' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError) {
    if (isUnavailable(memorial.error)) {
      if (auth.status === 'authenticated' && guest && !guest.expired) {
        return (
          <GuestScope>
            <PresentationLoader id={id} />
          </GuestScope>
        );
      }
      return <MemorialUnavailable expiredGuestAccess={guest?.expired} />;
    }
    return <LoadError error={memorial.error} onRetry={() => void memorial.refetch()} />;
  }
  return <PresentationLoader id={id} />;
}

function PresentationLoader({ id }: { id: string }) {
  const client = useApiClient();
  const scope = useViewerScope();
  const memorial = useMemorial(id);
  const gallery = useGallery(id, memorial.isSuccess);
  const memories = useQuery({
    queryKey: [...memorialKeys.wall(scope, id), 'presentation'],
    enabled: memorial.isSuccess,
    queryFn: ({ signal }) =>
      client.post(
        apiPaths.memoryWall(),
        { memorialId: id, limit: MEMORY_WALL_LIMIT_MAX },
        { schema: memoryPageSchema, signal },
      ),
  });

  // The music and the builder's choice: without them (an error) the presentation plays as it always did.
  const info = usePresentationInfo(id, memorial.isSuccess);

  if (memorial.isPending || gallery.isPending || memories.isPending || (memorial.isSuccess && info.isPending))
    return <PageSpinner />;
  if (memorial.isError) {
    return isUnavailable(memorial.error) ? (
      <MemorialUnavailable />
    ) : (
      <LoadError error={memorial.error} onRetry={() => void memorial.refetch()} />
    );
  }
  const failed = gallery.error ?? memories.error;
  if (failed) {
    return (
      <LoadError
        error={failed}
        onRetry={() => {
          void gallery.refetch();
          void memories.refetch();
        }}
      />
    );
  }
  if (!gallery.data || !memories.data) return <PageSpinner />;
  const settings = info.data?.settings ?? null;
  return (
    <Presentation
      memorial={memorial.data}
      slides={
        settings
          ? buildChosenSlides(settings, gallery.data.items, memories.data.items)
          : buildSlides(gallery.data.items, memories.data.items)
      }
      secondsPerSlide={settings?.secondsPerSlide}
      music={info.data?.music ?? null}
    />
  );
}

function Presentation({
  memorial,
  slides,
  secondsPerSlide,
  music,
}: {
  memorial: Memorial;
  slides: Slide[];
  secondsPerSlide?: number;
  music: PresentationMusic | null;
}) {
  const navigate = useNavigate();
  const rootRef = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [idle, setIdle] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const last = slides.length - 1;
  const slide = slides[index]!;
  const name = fullName(memorial);

  const go = useCallback((to: number) => setIndex(Math.max(0, Math.min(last, to))), [last]);
  const next = useCallback(() => setIndex((i) => Math.min(last, i + 1)), [last]);
  const previous = useCallback(() => setIndex((i) => Math.max(0, i - 1)), []);

  // The site's header steps aside while the presentation is on.
  useEffect(() => {
    document.documentElement.setAttribute('data-presentation', '');
    return () => document.documentElement.removeAttribute('data-presentation');
  }, []);

  // Play: each slide for its time; the closing slide stays.
  useEffect(() => {
    if (!playing || index >= last) return;
    const timer = window.setTimeout(next, slideDuration(slide, secondsPerSlide));
    return () => window.clearTimeout(timer);
  }, [playing, index, last, slide, next, secondsPerSlide]);

  // Music: loops, plays and pauses with the slideshow; M mutes. A browser that refuses to start sound
  // without a click gets a 'Muziek starten' button.
  const audioRef = useRef<HTMLAudioElement>(null);
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(0.8);
  const [musicBlocked, setMusicBlocked] = useState(false);
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.volume = volume;
    audio.muted = muted;
  }, [volume, muted]);
  const startMusic = useCallback(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.play().then(
      () => setMusicBlocked(false),
      () => setMusicBlocked(true),
    );
  }, []);
  useEffect(() => {
    if (playing) startMusic();
    else audioRef.current?.pause();
  }, [playing, startMusic, music]);

  // Controls and cursor hide after a few seconds without the pointer moving.
  const wake = useCallback(() => setIdle(false), []);
  useEffect(() => {
    if (idle) return;
    const timer = window.setTimeout(() => setIdle(true), IDLE_MS);
    return () => window.clearTimeout(timer);
  }, [idle]);
  useEffect(() => {
    const onMove = () => setIdle((was) => (was ? false : was));
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerdown', onMove);
    return () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerdown', onMove);
    };
  }, []);

  // No sleep while it plays, where the browser allows it; silently nothing otherwise.
  useEffect(() => {
    let lock: WakeLockSentinel | null = null;
    let gone = false;
    const acquire = async () => {
      try {
        if (document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return;
        const l = await navigator.wakeLock.request('screen');
        if (gone) void l.release().catch(() => undefined);
        else lock = l;
      } catch {
        // Not allowed or not supported: the presentation plays on without it.
      }
    };
    void acquire();
    const onVisible = () => void acquire();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      gone = true;
      document.removeEventListener('visibilitychange', onVisible);
      void lock?.release().catch(() => undefined);
    };
  }, []);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement != null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = useCallback(() => {
    try {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      else void rootRef.current?.requestFullscreen?.().catch(() => undefined);
    } catch {
      // Full screen is not available here (an embedded frame, an older browser).
    }
  }, []);

  const leave = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void navigate(routes.memorialBySlug(memorial.slug));
  }, [navigate, memorial.slug]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const onButton = e.target instanceof HTMLElement && e.target.closest('button, a') != null;
      switch (e.key) {
        case ' ':
        case 'k':
        case 'K':
          // Space on a focused button presses that button.
          if (e.key === ' ' && onButton) return;
          e.preventDefault();
          setPlaying((p) => !p);
          break;
        case 'ArrowRight':
        case 'PageDown':
          e.preventDefault();
          next();
          break;
        case 'ArrowLeft':
        case 'PageUp':
          e.preventDefault();
          previous();
          break;
        case 'Home':
          e.preventDefault();
          go(0);
          break;
        case 'End':
          e.preventDefault();
          go(last);
          break;
        case 'f':
        case 'F':
          e.preventDefault();
          toggleFullscreen();
          break;
        case 'm':
        case 'M':
          e.preventDefault();
          setMuted((m) => !m);
          break;
        case 'Escape':
          e.preventDefault();
          leave();
          break;
        default:
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [next, previous, go, last, toggleFullscreen, leave]);

  const years = lifeYears(memorial);
  // The current slide, the one before (fading out) and the one after (loading ahead) are in the page.
  const shown = slides.map((s, i) => ({ s, i })).filter(({ i }) => Math.abs(i - index) <= 1);

  return (
    <div
      ref={rootRef}
      className="presentation fixed inset-0 z-50 overflow-hidden bg-black text-white"
      data-idle={idle ? '' : undefined}
      onPointerMove={wake}
      role="region"
      aria-roledescription="presentatie"
      aria-label={`Presentatie: ${name}`}
    >
      <title>{`Presentatie voor ${name} · Aandenken`}</title>
      <h1 className="sr-only">Presentatie voor {name}</h1>
      {shown.map(({ s, i }) => (
        <div
          key={s.key}
          className="presentation-slide absolute inset-0 flex items-center justify-center"
          style={{ opacity: i === index ? 1 : 0 }}
          aria-hidden={i !== index}
          data-slide={s.kind}
          data-current={i === index ? '' : undefined}
          role="group"
          aria-roledescription="dia"
          aria-label={`Dia ${i + 1} van ${slides.length}`}
        >
          <SlideContent slide={s} memorial={memorial} name={name} years={years} />
        </div>
      ))}

      {music && (
        <audio
          ref={audioRef}
          src={music.url}
          loop
          preload="auto"
          data-testid="presentation-music"
          aria-hidden
        />
      )}

      <p className="sr-only" aria-live={playing ? 'off' : 'polite'} aria-atomic="true">
        Dia {index + 1} van {slides.length}
      </p>

      <div className="presentation-controls absolute inset-x-0 bottom-0 flex flex-wrap items-center justify-center gap-3 bg-gradient-to-t from-black/80 to-transparent px-4 pt-12 pb-6">
        <ControlButton label="Vorige dia" onClick={previous} disabled={index === 0}>
          <ChevronLeft aria-hidden className="h-6 w-6" />
        </ControlButton>
        <ControlButton
          label={playing ? 'Pauzeren' : 'Afspelen'}
          onClick={() => setPlaying((p) => !p)}
          data-testid="play-pause"
        >
          {playing ? <Pause aria-hidden className="h-6 w-6" /> : <Play aria-hidden className="h-6 w-6" />}
        </ControlButton>
        <ControlButton label="Volgende dia" onClick={next} disabled={index === last}>
          <ChevronRight aria-hidden className="h-6 w-6" />
        </ControlButton>
        <span className="min-w-20 text-center text-sm text-white/85 tabular-nums" aria-hidden>
          {index + 1} / {slides.length}
        </span>
        {music && (
          <>
            {musicBlocked && playing && (
              <button
                type="button"
                onClick={startMusic}
                className="flex h-12 items-center gap-2 rounded-full bg-white/15 px-4 text-white hover:bg-white/25 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
              >
                <Music aria-hidden className="h-5 w-5" />
                Muziek starten
              </button>
            )}
            <ControlButton
              label={muted ? 'Muziek aanzetten' : 'Muziek dempen'}
              onClick={() => setMuted((m) => !m)}
              aria-pressed={muted}
            >
              {muted ? (
                <VolumeX aria-hidden className="h-5 w-5" />
              ) : (
                <Volume2 aria-hidden className="h-5 w-5" />
              )}
            </ControlButton>
            <input
              type="range"
              min={0}
              max={100}
              step={5}
              value={Math.round(volume * 100)}
              onChange={(e) => setVolume(Number(e.target.value) / 100)}
              aria-label="Volume van de muziek"
              aria-valuetext={`${Math.round(volume * 100)} procent`}
              className="h-12 w-28 accent-white"
            />
          </>
        )}
        <ControlButton
          label={fullscreen ? 'Volledig scherm verlaten' : 'Volledig scherm'}
          onClick={toggleFullscreen}
        >
          <Maximize aria-hidden className="h-5 w-5" />
        </ControlButton>
        <Link
          to={routes.memorialBySlug(memorial.slug)}
          aria-label="Presentatie sluiten"
          className="flex h-12 w-12 items-center justify-center rounded-full bg-white/15 text-white hover:bg-white/25 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
        >
          <X aria-hidden className="h-5 w-5" />
        </Link>
        <p className="basis-full text-center text-xs text-white/80">
          Spatie of K: pauzeren · pijltjes: vorige en volgende · F: volledig scherm
          {music ? ' · M: muziek dempen' : ''} · Esc: stoppen
        </p>
      </div>
    </div>
  );
}

function ControlButton({
  label,
  children,
  ...props
}: { label: string } & React.ButtonHTMLAttributes<HTMLButtonElement> & { 'data-testid'?: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className="flex h-12 w-12 items-center justify-center rounded-full bg-white/15 text-white hover:bg-white/25 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none disabled:opacity-40"
      {...props}
    >
      {children}
    </button>
  );
}

function SlideContent({
  slide,
  memorial,
  name,
  years,
}: {
  slide: Slide;
  memorial: Memorial;
  name: string;
  years: string | null;
}) {
  switch (slide.kind) {
    case 'title':
      return (
        <div className="max-w-4xl px-8 text-center">
          <p className="font-serif text-5xl leading-tight sm:text-7xl">{slide.text ?? name}</p>
          {slide.text && <p className="mt-6 font-serif text-3xl text-white/90">{name}</p>}
          {years && <p className="mt-6 text-2xl text-white/85 sm:text-3xl">{years}</p>}
          {!slide.text && memorial.quote && (
            <p className="mx-auto mt-10 max-w-2xl font-serif text-2xl text-white/85 italic">
              “{memorial.quote}”
            </p>
          )}
        </div>
      );
    case 'photo': {
      const caption = slide.caption ?? slide.item.caption;
      return (
        <figure className="flex h-full w-full flex-col items-center justify-center">
          <MediaImage
            item={slide.item}
            alt={caption ?? `Foto van ${name}`}
            sizes="100vw"
            fit="contain"
            className="h-full w-full bg-black"
          />
          {caption && (
            <figcaption className="absolute top-8 right-0 left-0 mx-auto max-w-3xl px-6 text-center text-xl text-white/90 [text-shadow:0_1px_6px_rgb(0_0_0/0.8)]">
              {caption}
            </figcaption>
          )}
        </figure>
      );
    }
    case 'memory':
      return (
        <figure className="max-w-3xl px-8 text-center">
          {slide.memory.yearLabel && (
            <p className="text-lg tracking-wide text-white/75 uppercase">{slide.memory.yearLabel}</p>
          )}
          <blockquote className="mt-4 font-serif text-3xl leading-snug whitespace-pre-line sm:text-4xl">
            “{slide.memory.text}”
          </blockquote>
          <figcaption className="mt-8 text-xl text-white/85">— {slide.memory.author.name}</figcaption>
        </figure>
      );
    case 'closing':
      return (
        <div className="max-w-3xl px-8 text-center">
          <p className="text-2xl text-white/85">{slide.text ?? 'In liefdevolle herinnering aan'}</p>
          <p className="mt-4 font-serif text-5xl sm:text-6xl">{name}</p>
          {years && <p className="mt-6 text-2xl text-white/80">{years}</p>}
        </div>
      );
  }
}

/** The presentation could not be loaded for another reason than not being allowed (network, server). */
function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <section
      role="alert"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center"
    >
      <AlertCircle aria-hidden className="h-10 w-10 text-danger" />
      <h1 className="mt-5 text-3xl">De presentatie kon niet worden geladen</h1>
      <p className="mt-3 text-muted">{error.message}</p>
      <Button className="mt-8" onClick={onRetry}>
        <RefreshCw aria-hidden className="h-4 w-4" />
        Opnieuw proberen
      </Button>
    </section>
  );
}
