import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, EffectCoverflow, Navigation, Pagination } from 'swiper/modules';
import 'swiper/css';
import 'swiper/css/effect-coverflow';
import 'swiper/css/pagination';
import 'swiper/css/navigation';
import './coverflow.css';
import { Picture } from '../../../components/ui/picture.tsx';
import type { ImageAsset } from '../../../content/images.ts';

import type { Swiper as SwiperInstance } from 'swiper';

/**
 * Swiper's loop needs more slides than fit on screen (2.5 at 1024px, centred), so the 4 images are
 * rendered twice; the bullets stand for the 4 images and the one of the current image is marked.
 */
function markCurrentBullet(swiper: SwiperInstance, count: number) {
  swiper.pagination?.bullets?.forEach((bullet, i) => {
    const current = i === swiper.realIndex % count;
    bullet.classList.toggle('is-current', current);
    if (current) bullet.setAttribute('aria-current', 'true');
    else bullet.removeAttribute('aria-current');
  });
}

/** The demo's coverflow (spec §2, §9): 4 images, looping, centred, rotate 30, depth 150, stretch 0. */
export default function Coverflow({ slides }: { slides: ImageAsset[] }) {
  const count = slides.length;
  const rendered = [...slides, ...slides];
  return (
    <Swiper
      onInit={(swiper) => markCurrentBullet(swiper, count)}
      onSlideChange={(swiper) => markCurrentBullet(swiper, count)}
      onPaginationUpdate={(swiper) => markCurrentBullet(swiper, count)}
      className="demo-coverflow"
      modules={[EffectCoverflow, Pagination, Navigation, A11y]}
      effect="coverflow"
      loop
      centeredSlides
      grabCursor
      slidesPerView={1}
      spaceBetween={10}
      coverflowEffect={{ rotate: 30, depth: 150, stretch: 0, modifier: 1, slideShadows: false }}
      pagination={{
        clickable: true,
        renderBullet: (index, className) =>
          index < count
            ? `<span class="${className}" role="button" aria-label="Ga naar foto ${index + 1}"></span>`
            : '',
      }}
      navigation
      breakpoints={{
        320: { slidesPerView: 1, spaceBetween: 10 },
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
        slideLabelMessage: 'Foto',
      }}
    >
      {rendered.map((image, i) => (
        <SwiperSlide key={`${image.name}-${i}`}>
          <Picture
            image={image}
            sizes="(min-width: 1024px) 30vw, (min-width: 640px) 60vw, 85vw"
            className="aspect-[4/5] rounded-2xl shadow-lift"
          />
        </SwiperSlide>
      ))}
    </Swiper>
  );
}
