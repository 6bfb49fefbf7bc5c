import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Expand, MonitorPlay, Play } from 'lucide-react';
import { routes, type MediaItem, type Memorial } from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { fullName } from '../../../lib/memorials/life.ts';
import { PhotoViewer } from './photo-viewer-lazy.tsx';
import { photoLabel } from './photo-label.ts';
import { useInView } from '../../../lib/use-in-view.ts';

// Swiper is fetched when the gallery comes near the screen, and started when it is on it.
const loadCoverflow = () => import('./coverflow.tsx');
const Coverflow = lazy(loadCoverflow);

/** From this many photos the gallery is a coverflow; fewer are simply shown side by side. */
export const COVERFLOW_MIN = 3;

/** The memorial's photos and videos; each opens the full-screen viewer. */
export function Gallery({
  memorial,
  photos,
  loading,
}: {
  memorial: Memorial;
  photos: MediaItem[];
  loading: boolean;
}) {
  const [ref, shown] = useInView<HTMLDivElement>('400px 0px', loadCoverflow);
  const [viewing, setViewing] = useState<number | null>(null);

  if (loading) {
    return (
      <Container className="py-12">
        <Skeleton className="mx-auto h-72 max-w-3xl rounded-2xl" />
      </Container>
    );
  }
  if (photos.length === 0) return null;

  const placeholder = (
    <Skeleton className="mx-auto aspect-[4/3] w-full max-w-md rounded-2xl sm:aspect-[16/9] sm:max-w-3xl" />
  );

  return (
    <section aria-labelledby="photos-heading" className="below-fold py-12 sm:py-16">
      <Container>
        <div className="flex items-end justify-between gap-4">
          <h2 id="photos-heading" className="text-2xl font-semibold sm:text-3xl">
            Foto’s
          </h2>
          <p className="flex flex-wrap items-center justify-end gap-x-4 gap-y-1 text-sm text-muted">
            <span className="hidden sm:inline">Kies een foto om hem groot te bekijken.</span>
            <Link
              to={routes.memorialPresentation(memorial.id)}
              className="inline-flex items-center gap-1.5 rounded-md font-medium text-primary hover:underline"
            >
              <MonitorPlay aria-hidden className="h-4 w-4" />
              Bekijk als presentatie
            </Link>
          </p>
        </div>
        <div ref={ref} className="mt-8">
          {photos.length >= COVERFLOW_MIN ? (
            shown ? (
              <Suspense fallback={placeholder}>
                <Coverflow photos={photos} onOpen={setViewing} />
              </Suspense>
            ) : (
              placeholder
            )
          ) : (
            <ul className="grid gap-5 sm:grid-cols-2">
              {photos.map((item, i) => (
                <li key={item.id}>
                  <button
                    type="button"
                    onClick={() => setViewing(i)}
                    aria-label={photoLabel(item, i, photos.length)}
                    className="group relative block w-full overflow-hidden rounded-2xl shadow-soft"
                  >
                    <MediaImage
                      item={item}
                      alt=""
                      sizes="(min-width: 640px) 45vw, 90vw"
                      className="aspect-[3/2]"
                    />
                    <span
                      aria-hidden
                      className="absolute right-3 bottom-3 flex h-9 w-9 items-center justify-center rounded-full bg-black/55 text-white opacity-90 transition group-hover:opacity-100"
                    >
                      {item.kind === 'video' ? <Play className="h-4 w-4" /> : <Expand className="h-4 w-4" />}
                    </span>
                  </button>
                  {item.caption && <p className="mt-2 text-sm text-muted">{item.caption}</p>}
                </li>
              ))}
            </ul>
          )}
        </div>
      </Container>
      <PhotoViewer
        items={photos}
        index={viewing}
        onIndexChange={setViewing}
        title={`Foto’s van ${fullName(memorial)}`}
      />
    </section>
  );
}
