import { useState } from 'react';
import { Swiper, SwiperSlide } from 'swiper/react';
import { A11y, EffectCoverflow, Navigation } from 'swiper/modules';
import type { Swiper as SwiperInstance } from 'swiper';
import 'swiper/css';
import 'swiper/css/effect-coverflow';
import 'swiper/css/navigation';
import '../../../components/ui/coverflow.css';
import './coverflow.css';
import { Picture } from '../../../components/ui/picture.tsx';
import type { ImageAsset } from '../../../content/images.ts';

/**
 * The demo's coverflow: 4 images, looping, centred, rotate 30, depth 150, stretch 0.
 *
 * Swiper's loop needs more slides than fit on screen (2.5 at 1024px, centred), so the 4 images are
 * rendered twice. The bullets are ours, not Swiper's: there are 4 of them, one per image, and the
 * bullet of the image in the centre is marked, whichever copy of it is showing.
 */
export default function Coverflow({ slides }: { slides: ImageAsset[] }) {
  const count = slides.length;
  const rendered = [...slides, ...slides];
  const [swiper, setSwiper] = useState<SwiperInstance | null>(null);
  const [current, setCurrent] = useState(0);

  function goTo(image: number) {
    if (!swiper) return;
    // Of the two copies of an image, move to the nearer one so the carousel turns the short way.
    const here = swiper.realIndex;
    const candidates = [image, image + count];
    const distance = (to: number) => {
      const d = Math.abs(to - here);
      return Math.min(d, rendered.length - d);
    };
    const target = candidates.reduce((best, c) => (distance(c) < distance(best) ? c : best));
    swiper.slideToLoop(target);
  }

  return (
    <div>
      <Swiper
        onSwiper={setSwiper}
        onRealIndexChange={(s) => setCurrent(s.realIndex % count)}
        className="coverflow"
        modules={[EffectCoverflow, Navigation, A11y]}
        effect="coverflow"
        loop
        loopPreventsSliding={false}
        centeredSlides
        grabCursor
        slidesPerView={1}
        spaceBetween={10}
        coverflowEffect={{ rotate: 30, depth: 150, stretch: 0, modifier: 1, slideShadows: false }}
        navigation
        breakpoints={{
          320: { slidesPerView: 1, spaceBetween: 10 },
          640: { slidesPerView: 1.5, spaceBetween: 15 },
          1024: { slidesPerView: 2.5, spaceBetween: 20 },
        }}
        a11y={{
          prevSlideMessage: 'Vorige foto',
          nextSlideMessage: 'Volgende foto',
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
      <div className="demo-coverflow-bullets" role="group" aria-label="Kies een foto">
        {slides.map((image, i) => (
          <button
            key={image.name}
            type="button"
            className="demo-coverflow-bullet"
            aria-label={`Ga naar foto ${i + 1}`}
            aria-current={i === current ? 'true' : undefined}
            onClick={() => goTo(i)}
          />
        ))}
      </div>
    </div>
  );
}
