import { Link } from 'react-router';
import { ArrowRight } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Container, Eyebrow } from '../../../components/ui/container.tsx';
import { exampleMemorials } from '../../../content/examples.ts';
import { ExampleCard } from './example-card.tsx';
import { ExamplesCarousel } from './examples-carousel.tsx';

export function ExamplesSection() {
  return (
    <section aria-labelledby="examples-heading" className="py-20 sm:py-24">
      <Container>
        <div className="mx-auto max-w-2xl text-center">
          <Eyebrow>Voorbeelden</Eyebrow>
          <h2 id="examples-heading" className="mt-3 text-3xl font-semibold sm:text-4xl">
            Bekijk deze voorbeelden
          </h2>
          <p className="mt-4 text-lg text-muted">
            Ontdek hoe anderen hun dierbaren herdenken, en deel je eigen herinneringen.
          </p>
        </div>
        <div className="mt-12 md:hidden">
          <ExamplesCarousel examples={exampleMemorials} />
        </div>
        <div data-testid="examples-grid" className="mt-14 hidden gap-6 md:grid md:grid-cols-2 lg:grid-cols-3">
          {exampleMemorials.map((example) => (
            <ExampleCard
              key={example.id}
              example={example}
              className="transition-shadow hover:shadow-lift"
              footer={
                <Link
                  to={routes.memorial(example.memorialId)}
                  className="inline-flex items-center gap-1.5 rounded-md font-medium text-primary hover:underline"
                >
                  Bekijk de gedenkpagina
                  <ArrowRight aria-hidden className="h-4 w-4" />
                </Link>
              }
            />
          ))}
        </div>
        <div className="mt-10 hidden justify-center md:flex">
          <Link to={routes.example} className={buttonClass('outline', 'lg')}>
            Bekijk voorbeelden
            <ArrowRight aria-hidden className="h-4 w-4" />
          </Link>
        </div>
      </Container>
    </section>
  );
}
