import { arrayMove } from '@dnd-kit/sortable';
import { Link } from 'react-router';
import { MonitorPlay, SlidersHorizontal } from 'lucide-react';
import { routes, type Memorial } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useGallery } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { useReorderGallery } from '../api/media.ts';
import { GalleryUpload } from '../components/media/gallery-upload.tsx';
import { SortableGallery } from '../components/media/sortable-gallery.tsx';
import { errorText, Section } from '../components/section.tsx';

/** Photos and videos: several at once with progress, captions, order (drag or Omhoog/Omlaag), cover, delete. */
export function MediaTab({ memorial }: { memorial: Memorial }) {
  const gallery = useGallery(memorial.id);
  const reorder = useReorderGallery(memorial.id);
  const items = gallery.data?.items ?? [];

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    reorder.mutate(arrayMove(items, from, to), {
      onError: (e) => toast.error('De volgorde kon niet worden opgeslagen', errorText(e)),
    });
  };

  return (
    <div className="flex flex-col gap-8">
      <GalleryUpload memorial={memorial} count={items.length} />
      <Section
        title="Galerij"
        actions={
          <div className="flex flex-wrap gap-3">
            <Link to={routes.memorialPresentation(memorial.id)} className={buttonClass('outline', 'md')}>
              <MonitorPlay aria-hidden className="h-4 w-4" />
              Presentatie afspelen
            </Link>
            <Link
              to={routes.memorialPresentationBuilder(memorial.id)}
              className={buttonClass('outline', 'md')}
            >
              <SlidersHorizontal aria-hidden className="h-4 w-4" />
              Presentatie samenstellen
            </Link>
          </div>
        }
        description="Sleep een foto aan de greep om de volgorde te veranderen, of gebruik Omhoog en Omlaag. Met het toetsenbord: Tab naar de greep, Spatie om op te pakken, pijltjes om te verplaatsen, Spatie om los te laten."
      >
        <QueryState
          query={gallery}
          skeleton={
            <div className="flex flex-col gap-3">
              {[0, 1].map((i) => (
                <Skeleton key={i} className="h-28 rounded-2xl" />
              ))}
            </div>
          }
          error="De foto’s en video’s konden niet worden geladen."
        >
          {() =>
            items.length === 0 ? (
              <p className="text-sm text-muted">Nog geen foto’s of video’s. Voeg ze hierboven toe.</p>
            ) : (
              <SortableGallery memorial={memorial} items={items} onMove={move} />
            )
          }
        </QueryState>
      </Section>
    </div>
  );
}
