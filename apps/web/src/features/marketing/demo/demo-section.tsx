import { lazy, Suspense } from 'react';
import { Container, Eyebrow } from '../../../components/ui/container.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { demoMemorial, sampleMemories } from '../../../content/demo.ts';
import { MemoryWall } from './memory-wall.tsx';
import { useInView } from '../../../lib/use-in-view.ts';

// Swiper is fetched when the demo comes near the screen, and started when it is on it.
const loadCoverflow = () => import('./coverflow.tsx');
const Coverflow = lazy(loadCoverflow);

export function DemoSection() {
  const [ref, shown] = useInView<HTMLDivElement>('300px 0px', loadCoverflow);
  const placeholder = (
    <div className="flex aspect-[4/5] max-h-[32rem] w-full items-center justify-center rounded-2xl bg-secondary text-muted sm:aspect-[16/9]">
      <Spinner label="Fotocarrousel laden" />
    </div>
  );
  return (
    <section
      aria-labelledby="demo-heading"
      className="border-y border-border bg-background-soft py-20 sm:py-24"
    >
      <Container>
        <div className="mx-auto max-w-2xl text-center">
          <Eyebrow>Zo ziet een gedenkpagina eruit</Eyebrow>
          <h2 id="demo-heading" className="mt-4 text-3xl font-semibold sm:text-5xl">
            <span className="block text-lg font-normal text-muted sm:text-xl">{demoMemorial.heading}</span>
            <span className="mt-2 block">{demoMemorial.firstName}</span>
          </h2>
          <p className="mt-3 text-lg tracking-widest text-accent">{demoMemorial.years}</p>
          <p className="mt-5 leading-relaxed text-muted">{demoMemorial.intro}</p>
        </div>
        <div ref={ref} data-testid="demo-coverflow" className="mt-12 min-h-[24rem]">
          {shown ? (
            <Suspense fallback={placeholder}>
              <Coverflow slides={demoMemorial.slides} />
            </Suspense>
          ) : (
            placeholder
          )}
        </div>
        <h3 className="mt-16 text-center text-2xl font-semibold">
          Herinneringen aan {demoMemorial.firstName}
        </h3>
        <MemoryWall memories={sampleMemories} />
      </Container>
    </section>
  );
}
