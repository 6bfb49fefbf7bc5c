import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowDown,
  ArrowLeft,
  ArrowUp,
  Download,
  Film,
  MonitorPlay,
  Music,
  Sparkles,
  Trash2,
  Upload,
} from 'lucide-react';
import {
  apiPaths,
  MEMORY_WALL_LIMIT_MAX,
  memoryPageSchema,
  PRESENTATION_CAPTION_MAX_CHARS,
  PRESENTATION_SECONDS_DEFAULT,
  PRESENTATION_SECONDS_MAX,
  PRESENTATION_SECONDS_MIN,
  PRESENTATION_TITLE_MAX_CHARS,
  roleAtLeast,
  routes,
  type MediaItem,
  type Memorial,
  type Memory,
  type PresentationInfo,
  type PresentationResolution,
  type PresentationSlide,
  videoAndMusicOffMessage,
} from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { MemorialUnavailable } from '../../../components/memorial/memorial-unavailable.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageSpinner, Spinner } from '../../../components/ui/spinner.tsx';
import { useApiClient } from '../../../lib/api-client.ts';
import { useSignInRequired } from '../../../components/auth/sign-in-required.ts';
import { fullName } from '../../../lib/memorials/life.ts';
import { memorialKeys, useGallery, useMemorial } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import {
  usePresentationInfo,
  usePresentationVideo,
  useRemoveMusic,
  useRequestVideo,
  useResetPresentationSettings,
  useSavePresentationSettings,
  useUploadMusic,
} from '../presentation/api.ts';

const fieldClass =
  'w-full rounded-xl border border-input bg-card px-4 py-2.5 text-base text-foreground shadow-sm placeholder:text-muted/70 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring';
const MUSIC_ACCEPT = 'audio/mpeg,audio/mp4,audio/aac,audio/ogg,.mp3,.m4a,.aac,.ogg,.oga,.opus';

const errorText = (e: unknown) => (e instanceof Error ? e.message : 'Er ging iets mis. Probeer het opnieuw.');
const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function Card({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8"
    >
      <h2 id={id} className="text-xl font-semibold sm:text-2xl">
        {title}
      </h2>
      {description && <p className="mt-1.5 max-w-2xl text-sm leading-relaxed text-muted">{description}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}

/**
 * /memorial/{id}/presentatie/samenstellen (owners and editors): music for the presentation (every plan);
 * with Premium the slides, captions, time per slide, title and closing slide, and the MP4 export.
 */
export default function PresentationBuilderPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const memorial = useMemorial(id, auth.status === 'authenticated');

  const m = memorial.data;
  const allowed = !!m && roleAtLeast(m.role, 'editor');
  const info = usePresentationInfo(id, allowed);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError || !m || !allowed) return <MemorialUnavailable />;

  return (
    <Container className="max-w-4xl py-10 sm:py-14">
      <title>{`Presentatie samenstellen voor ${fullName(m)} · Aandenken`}</title>
      <Link
        to={routes.memorialManage(m.id, 'fotos')}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar foto’s en video’s
      </Link>
      <h1 className="mt-3 font-serif text-3xl font-semibold sm:text-4xl">
        <span className="block font-sans text-base font-normal text-muted sm:text-lg">
          Presentatie samenstellen
        </span>
        {fullName(m)}
      </h1>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={routes.memorialPresentation(m.id)} className={buttonClass('outline', 'md')}>
          <MonitorPlay aria-hidden className="h-4 w-4" />
          Presentatie afspelen
        </Link>
      </div>
      <div className="mt-8 flex flex-col gap-8">
        {info.isPending ? (
          <Spinner />
        ) : info.isError || !info.data ? (
          <p role="alert" className="text-danger">
            De presentatie kon niet worden geladen. {errorText(info.error)}
          </p>
        ) : (
          <>
            <MusicCard memorialId={m.id} info={info.data} />
            {info.data.advancedVideo ? (
              <>
                <SlidesCard memorial={m} info={info.data} />
                <VideoCard memorialId={m.id} available={info.data.videoAndMusic} />
              </>
            ) : (
              <PremiumNotice memorialId={m.id} />
            )}
          </>
        )}
      </div>
    </Container>
  );
}

function MusicCard({ memorialId, info }: { memorialId: string; info: PresentationInfo }) {
  const upload = useUploadMusic(memorialId);
  const remove = useRemoveMusic(memorialId);
  const [progress, setProgress] = useState<number | null>(null);
  const inputId = useId();
  const music = info.music;

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: () => toast.success('De muziek staat bij de presentatie'),
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <Card
      id="muziek"
      title="Muziek"
      description="Kies één muziekbestand (MP3, AAC/M4A of Ogg, tot 20 MB). Het speelt in een lus bij de presentatie en pauzeert als de presentatie pauzeert."
    >
      {music ? (
        <div className="flex flex-col gap-3">
          <p className="flex items-center gap-2 font-medium">
            <Music aria-hidden className="h-5 w-5 text-primary" />
            <span data-testid="music-name">{music.fileName ?? 'Muziek'}</span>
            <span className="text-sm font-normal text-muted">({minutes(music.durationMs)})</span>
          </p>
          <audio controls src={music.url} preload="none" className="w-full max-w-md">
            <track kind="captions" />
          </audio>
        </div>
      ) : (
        <p className="text-sm text-muted">
          Er staat nog geen muziek bij de presentatie; die speelt dan stil.
        </p>
      )}
      {!info.videoAndMusic && (
        <p className="mt-4 text-sm text-muted" data-testid="video-music-off">
          {videoAndMusicOffMessage}
        </p>
      )}
      <div className="mt-5 flex flex-wrap items-center gap-3">
        {info.videoAndMusic && (
          <>
            <label htmlFor={inputId} className={buttonClass('primary', 'md', 'cursor-pointer')}>
              <Upload aria-hidden className="h-4 w-4" />
              {music ? 'Andere muziek kiezen' : 'Muziek kiezen'}
            </label>
            <input
              id={inputId}
              type="file"
              accept={MUSIC_ACCEPT}
              className="sr-only"
              disabled={upload.isPending}
              onChange={(e) => {
                onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </>
        )}
        {music && (
          <Button
            variant="outline"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast.success('De muziek is verwijderd'),
                onError: (e) => toast.error('De muziek kon niet worden verwijderd', errorText(e)),
              })
            }
          >
            <Trash2 aria-hidden className="h-4 w-4" />
            Muziek verwijderen
          </Button>
        )}
      </div>
      {progress !== null && (
        <div className="mt-4 flex items-center gap-3">
          <progress
            max={1}
            value={progress}
            aria-label="Muziek uploaden"
            className="h-2 w-64 accent-primary"
          />
          <span className="text-sm text-muted" aria-live="polite">
            {progress < 1 ? `${Math.round(progress * 100)}%` : 'Controleren…'}
          </span>
        </div>
      )}
      {upload.isError && (
        <p role="alert" className="mt-4 text-sm text-danger">
          {errorText(upload.error)}
        </p>
      )}
    </Card>
  );
}

function PremiumNotice({ memorialId }: { memorialId: string }) {
  return (
    <Card
      id="premium"
      title="Dia’s kiezen en een video maken"
      description="Zelf de dia’s kiezen en ordenen, onderschriften, de tijd per dia, een eigen titel- en slotdia en de presentatie als video (MP4) downloaden horen bij Premium. Met Basis speelt de presentatie alle foto’s in de volgorde van de galerij, met een aantal herinneringen ertussen."
    >
      <Link to={routes.payment(memorialId)} className={buttonClass('primary', 'md')}>
        <Sparkles aria-hidden className="h-4 w-4" />
        Bekijk Premium
      </Link>
    </Card>
  );
}

type Row =
  | { kind: 'photo'; id: string; item: MediaItem; include: boolean; caption: string }
  | { kind: 'memory'; id: string; memory: Memory; include: boolean; caption: string };

function initialRows(info: PresentationInfo, gallery: MediaItem[], memories: Memory[]): Row[] {
  const photos = gallery.filter((g) => g.kind === 'image');
  const published = memories.filter((x) => x.status === 'published' && x.text.trim());
  const make = (s: Pick<PresentationSlide, 'kind' | 'id'>, include: boolean, caption = ''): Row | null => {
    if (s.kind === 'photo') {
      const item = photos.find((p) => p.id === s.id);
      return item ? { kind: 'photo', id: item.id, item, include, caption } : null;
    }
    const memory = published.find((x) => x.id === s.id);
    return memory ? { kind: 'memory', id: memory.id, memory, include, caption: '' } : null;
  };
  const chosen = (info.settings?.slides ?? [])
    .map((s) => make(s, true, s.caption ?? ''))
    .filter((r): r is Row => r !== null);
  const taken = new Set(chosen.map((r) => r.id));
  // Without a choice: every photo in, memories offered but left out.
  const rest = [
    ...photos.filter((p) => !taken.has(p.id)).map((p) => make({ kind: 'photo', id: p.id }, !info.settings)),
    ...published.filter((x) => !taken.has(x.id)).map((x) => make({ kind: 'memory', id: x.id }, false)),
  ].filter((r): r is Row => r !== null);
  return [...chosen, ...rest];
}

function SlidesCard({ memorial, info }: { memorial: Memorial; info: PresentationInfo }) {
  const client = useApiClient();
  const gallery = useGallery(memorial.id);
  const memories = useQuery({
    queryKey: [...memorialKeys.wall('session', memorial.id), 'presentation-builder'],
    queryFn: ({ signal }) =>
      client.post(
        apiPaths.memoryWall(),
        { memorialId: memorial.id, limit: MEMORY_WALL_LIMIT_MAX },
        { schema: memoryPageSchema, signal },
      ),
  });
  if (gallery.isPending || memories.isPending) return <Spinner />;
  if (gallery.isError || memories.isError)
    return (
      <p role="alert" className="text-danger">
        De foto’s en herinneringen konden niet worden geladen.
      </p>
    );
  return (
    <SlidesForm memorial={memorial} info={info} gallery={gallery.data.items} memories={memories.data.items} />
  );
}

function SlidesForm({
  memorial,
  info,
  gallery,
  memories,
}: {
  memorial: Memorial;
  info: PresentationInfo;
  gallery: MediaItem[];
  memories: Memory[];
}) {
  const save = useSavePresentationSettings(memorial.id);
  const reset = useResetPresentationSettings(memorial.id);
  const start = useMemo(() => initialRows(info, gallery, memories), [info, gallery, memories]);
  const [rows, setRows] = useState(start);
  const [seconds, setSeconds] = useState(
    String(info.settings?.secondsPerSlide ?? PRESENTATION_SECONDS_DEFAULT),
  );
  const [titleText, setTitleText] = useState(info.settings?.titleText ?? '');
  const [closingText, setClosingText] = useState(info.settings?.closingText ?? '');
  const [error, setError] = useState<string | null>(null);
  const ids = { seconds: useId(), title: useId(), closing: useId() };
  const name = fullName(memorial);

  const update = (i: number, change: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? ({ ...r, ...change } as Row) : r)));
  const move = (i: number, to: number) =>
    setRows((rs) => {
      if (to < 0 || to >= rs.length) return rs;
      const next = [...rs];
      const [row] = next.splice(i, 1);
      next.splice(to, 0, row!);
      return next;
    });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const n = Number(seconds);
    if (!Number.isInteger(n) || n < PRESENTATION_SECONDS_MIN || n > PRESENTATION_SECONDS_MAX) {
      setError(
        `Kies een tijd per dia van ${PRESENTATION_SECONDS_MIN} tot ${PRESENTATION_SECONDS_MAX} seconden.`,
      );
      return;
    }
    const slides = rows
      .filter((r) => r.include)
      .map((r) => ({
        kind: r.kind,
        id: r.id,
        caption: r.kind === 'photo' ? r.caption.trim() || null : null,
      }));
    if (slides.length === 0) {
      setError('Kies minstens één foto of herinnering.');
      return;
    }
    setError(null);
    save.mutate(
      {
        slides,
        secondsPerSlide: n,
        titleText: titleText.trim() || null,
        closingText: closingText.trim() || null,
      },
      {
        onSuccess: () => toast.success('De presentatie is opgeslagen'),
        onError: (err) => setError(errorText(err)),
      },
    );
  };

  return (
    <Card
      id="dias"
      title="Dia’s kiezen"
      description="Kies welke foto’s en herinneringen in de presentatie komen, in welke volgorde, met een onderschrift bij een foto. De presentatie en de video volgen deze keuze."
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.title} className="text-sm font-medium">
              Titeldia
            </label>
            <input
              id={ids.title}
              className={`${fieldClass} mt-1.5`}
              value={titleText}
              maxLength={PRESENTATION_TITLE_MAX_CHARS}
              placeholder={name}
              onChange={(e) => setTitleText(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor={ids.closing} className="text-sm font-medium">
              Slotdia
            </label>
            <input
              id={ids.closing}
              className={`${fieldClass} mt-1.5`}
              value={closingText}
              maxLength={PRESENTATION_TITLE_MAX_CHARS}
              placeholder="In liefdevolle herinnering aan"
              onChange={(e) => setClosingText(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor={ids.seconds} className="text-sm font-medium">
              Seconden per dia
            </label>
            <input
              id={ids.seconds}
              type="number"
              inputMode="numeric"
              min={PRESENTATION_SECONDS_MIN}
              max={PRESENTATION_SECONDS_MAX}
              className={`${fieldClass} mt-1.5 max-w-32`}
              value={seconds}
              onChange={(e) => setSeconds(e.target.value)}
            />
          </div>
        </div>

        {rows.length === 0 ? (
          <p className="text-sm text-muted">Er staan nog geen foto’s of herinneringen op de pagina.</p>
        ) : (
          <ol className="flex flex-col gap-3" aria-label="Dia’s in volgorde">
            {rows.map((r, i) => {
              const label =
                r.kind === 'photo'
                  ? r.item.caption || `Foto ${i + 1}`
                  : `Herinnering: ${r.memory.text.slice(0, 40)}`;
              return (
                <li
                  key={r.id}
                  className="flex flex-wrap items-center gap-4 rounded-2xl border border-border p-3"
                  data-testid="slide-row"
                >
                  <label className="flex items-center gap-2 text-sm font-medium">
                    <input
                      type="checkbox"
                      checked={r.include}
                      onChange={(e) => update(i, { include: e.target.checked })}
                      className="h-5 w-5 accent-primary"
                      aria-label={`${label} opnemen`}
                    />
                    Opnemen
                  </label>
                  {r.kind === 'photo' ? (
                    <>
                      <MediaImage
                        item={r.item}
                        sizes="96px"
                        alt=""
                        className="h-16 w-24 shrink-0 rounded-lg"
                      />
                      <input
                        className={`${fieldClass} min-w-48 flex-1`}
                        value={r.caption}
                        maxLength={PRESENTATION_CAPTION_MAX_CHARS}
                        placeholder={r.item.caption ?? 'Onderschrift (mag leeg)'}
                        aria-label={`Onderschrift bij ${label}`}
                        onChange={(e) => update(i, { caption: e.target.value })}
                      />
                    </>
                  ) : (
                    <p className="min-w-48 flex-1 text-sm">
                      <span className="font-medium">Herinnering</span>
                      {r.memory.yearLabel ? ` · ${r.memory.yearLabel}` : ''}: “{r.memory.text.slice(0, 120)}
                      {r.memory.text.length > 120 ? '…' : ''}”
                    </p>
                  )}
                  <div className="flex gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => move(i, i - 1)}
                      disabled={i === 0}
                      aria-label={`${label} omhoog`}
                    >
                      <ArrowUp aria-hidden className="h-4 w-4" />
                      Omhoog
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => move(i, i + 1)}
                      disabled={i === rows.length - 1}
                      aria-label={`${label} omlaag`}
                    >
                      <ArrowDown aria-hidden className="h-4 w-4" />
                      Omlaag
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.isPending}>
            Presentatie opslaan
          </Button>
          {info.settings && (
            <Button
              variant="outline"
              disabled={reset.isPending}
              onClick={() =>
                reset.mutate(undefined, {
                  onSuccess: () => {
                    setRows(initialRows({ ...info, settings: null }, gallery, memories));
                    toast.success('De presentatie volgt weer de galerij');
                  },
                  onError: (err) => setError(errorText(err)),
                })
              }
            >
              Automatische volgorde
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}

function VideoCard({ memorialId, available }: { memorialId: string; available: boolean }) {
  const video = usePresentationVideo(memorialId, true);
  const request = useRequestVideo(memorialId);
  const [resolution, setResolution] = useState<PresentationResolution>('1080p');
  const state = video.data;
  const busy = state?.status === 'queued' || state?.status === 'rendering';
  const groupId = useId();

  return (
    <Card
      id="video"
      title="Video (MP4)"
      description="Maak een video van de presentatie om af te spelen zonder internet of te delen (H.264 met AAC-geluid). Het maken gebeurt op de achtergrond; je krijgt een mail met de downloadlink als hij klaar is."
    >
      {!available && (
        <p className="mb-4 text-sm text-muted" data-testid="video-off">
          {videoAndMusicOffMessage}
        </p>
      )}
      {available && (
        <fieldset className="flex flex-wrap gap-4" disabled={busy || request.isPending}>
          <legend id={groupId} className="mb-2 text-sm font-medium">
            Formaat
          </legend>
          {(['1080p', '720p'] as const).map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="resolution"
                value={r}
                checked={resolution === r}
                onChange={() => setResolution(r)}
                className="h-4 w-4 accent-primary"
              />
              {r === '1080p' ? 'Full HD (1080p)' : 'HD (720p, kleiner bestand)'}
            </label>
          ))}
        </fieldset>
      )}
      <div className="mt-5 flex flex-wrap items-center gap-3">
        {available && (
          <Button disabled={busy || request.isPending} onClick={() => request.mutate(resolution)}>
            <Film aria-hidden className="h-4 w-4" />
            {state?.status === 'ready' ? 'Opnieuw maken' : 'Video maken'}
          </Button>
        )}
        {state?.status === 'ready' && state.downloadUrl && (
          <a href={state.downloadUrl} className={buttonClass('outline', 'md')} download>
            <Download aria-hidden className="h-4 w-4" />
            Video downloaden ({state.resolution})
          </a>
        )}
      </div>
      <div className="mt-4" aria-live="polite">
        {busy && state && (
          <div className="flex items-center gap-3">
            <progress
              max={1}
              value={state.progress}
              aria-label="Video maken"
              className="h-2 w-64 accent-primary"
            />
            <span className="text-sm text-muted">
              {state.status === 'queued' ? 'In de wachtrij…' : `${Math.round(state.progress * 100)}% klaar`}
            </span>
          </div>
        )}
        {state?.status === 'ready' && state.expiresAt && (
          <p className="text-sm text-muted" data-testid="video-ready">
            De video is klaar. De downloadlink werkt tot{' '}
            {new Date(state.expiresAt).toLocaleDateString('nl-NL', {
              day: 'numeric',
              month: 'long',
              year: 'numeric',
            })}
            .
          </p>
        )}
      </div>
      {state?.status === 'failed' && (
        <p role="alert" className="mt-4 text-sm text-danger">
          {state.error}
        </p>
      )}
      {/* Next to the button: why the request was refused (a video already being made, …). */}
      {request.isError && (
        <p role="alert" className="mt-4 text-sm text-danger">
          {errorText(request.error) ?? 'De video kon niet worden aangevraagd. Probeer het opnieuw.'}
        </p>
      )}
    </Card>
  );
}
