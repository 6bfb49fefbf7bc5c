import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, EffectCoverflow, Keyboard, Navigation, Pagination } from 'swiper/modules';
import 'swiper/css';
import 'swiper/css/effect-coverflow';
import 'swiper/css/pagination';
import 'swiper/css/navigation';
import '../../../components/ui/coverflow.css';
import { Expand, Play } from 'lucide-react';
import type { MediaItem } from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { photoLabel } from './photo-label.ts';

/** The demo's coverflow (rotate 30, depth 150, stretch 0) with the memorial's own photos; a slide opens the viewer. */
export default function Coverflow({
  photos,
  onOpen,
}: {
  photos: MediaItem[];
  onOpen: (index: number) => void;
}) {
  return (
    <Swiper
      className="coverflow memorial-coverflow"
      modules={[EffectCoverflow, Pagination, Navigation, Keyboard, A11y]}
      effect="coverflow"
      rewind
      initialSlide={photos.length >= 3 ? 1 : 0}
      centeredSlides
      grabCursor
      keyboard={{ enabled: true, onlyInViewport: true }}
      slidesPerView={1.15}
      spaceBetween={10}
      coverflowEffect={{ rotate: 30, depth: 150, stretch: 0, modifier: 1, slideShadows: false }}
      pagination={{ clickable: true, dynamicBullets: photos.length > 7 }}
      navigation
      breakpoints={{
        640: { slidesPerView: 1.5, spaceBetween: 15 },
        1024: { slidesPerView: 2.5, spaceBetween: 20 },
      }}
      a11y={{
        prevSlideMessage: 'Vorige foto',
        nextSlideMessage: 'Volgende foto',
        paginationBulletMessage: 'Ga naar foto {{index}}',
        firstSlideMessage: 'Dit is de eerste foto',
        lastSlideMessage: 'Dit is de laatste foto',
        containerRoleDescriptionMessage: 'carrousel',
        itemRoleDescriptionMessage: 'foto',
        slideLabelMessage: 'Foto {{index}} van {{slidesLength}}',
      }}
    >
      {photos.map((item, i) => (
        <SwiperSlide key={item.id}>
          <figure>
            <button
              type="button"
              onClick={() => onOpen(i)}
              aria-label={photoLabel(item, i, photos.length)}
              className="group relative block w-full overflow-hidden rounded-2xl shadow-lift"
            >
              <MediaImage
                item={item}
                alt=""
                sizes="(min-width: 1024px) 30vw, (min-width: 640px) 60vw, 85vw"
                className="aspect-[4/3]"
              />
              <span
                aria-hidden
                className="absolute right-3 bottom-3 flex h-9 w-9 items-center justify-center rounded-full bg-black/55 text-white opacity-0 transition group-hover:opacity-100 group-focus-visible:opacity-100"
              >
                {item.kind === 'video' ? <Play className="h-4 w-4" /> : <Expand className="h-4 w-4" />}
              </span>
            </button>
            {item.caption && (
              <figcaption className="mt-3 line-clamp-2 px-2 text-center text-sm text-muted">
                {item.caption}
              </figcaption>
            )}
          </figure>
        </SwiperSlide>
      ))}
    </Swiper>
  );
}
