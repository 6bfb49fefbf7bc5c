import { Link } from 'react-router';
import { ArrowRight, BookOpen, Flower2, Heart, Quote } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../components/ui/button.tsx';
import { Container, Eyebrow } from '../../components/ui/container.tsx';
import { Picture } from '../../components/ui/picture.tsx';
import { exampleMemorials, type ExampleMemorial } from '../../content/examples.ts';
import { formatNumber } from '../../lib/format.ts';
import { ExampleFacts } from './examples/example-card.tsx';

/** /example: the sample memorials as a gallery, larger and with their details. */
export default function ExamplePage() {
  return (
    <>
      <title>Voorbeelden · Aandenken</title>
      <section className="py-16 sm:py-20">
        <Container>
          <div className="mx-auto max-w-2xl text-center">
            <Eyebrow>Voorbeelden</Eyebrow>
            <h1 className="mt-3 text-4xl font-semibold sm:text-5xl">Voorbeelden van gedenkpagina’s</h1>
            <p className="mt-5 text-lg text-muted">
              Zo herdenken anderen hun dierbaren. Elke pagina is anders, net als ieder leven: met foto’s,
              verhalen, bloemen en herinneringen van iedereen die meeleeft.
            </p>
          </div>
          <div className="mt-16 flex flex-col gap-10">
            {exampleMemorials.map((example, i) => (
              <ExampleProfile key={example.id} example={example} reversed={i % 2 === 1} />
            ))}
          </div>
          <div className="mt-16 flex flex-col items-center gap-4 rounded-3xl border border-border bg-card px-6 py-12 text-center shadow-soft">
            <h2 className="text-2xl font-semibold sm:text-3xl">Maak zelf een gedenkpagina</h2>
            <p className="max-w-lg text-muted">
              Begin gratis. Je nodigt familie en vrienden uit wanneer jij er klaar voor bent.
            </p>
            <Link to={routes.createMemorial} className={buttonClass('primary', 'lg', 'mt-2')}>
              Maak een pagina
              <ArrowRight aria-hidden className="h-4 w-4" />
            </Link>
          </div>
        </Container>
      </section>
    </>
  );
}

function ExampleProfile({ example, reversed }: { example: ExampleMemorial; reversed: boolean }) {
  const stats = [
    { Icon: Flower2, value: example.stats.flowers, label: 'bloemen' },
    { Icon: Heart, value: example.stats.memories, label: 'herinneringen' },
    { Icon: BookOpen, value: example.stats.stories, label: 'verhalen' },
  ];
  return (
    <article
      aria-labelledby={`profile-${example.id}`}
      className="grid overflow-hidden rounded-3xl border border-border bg-card text-card-foreground shadow-soft lg:grid-cols-2"
    >
      <Picture
        image={example.image}
        sizes="(min-width: 1024px) 576px, 100vw"
        className={
          reversed
            ? 'aspect-[3/2] lg:order-2 lg:aspect-auto lg:min-h-full'
            : 'aspect-[3/2] lg:aspect-auto lg:min-h-full'
        }
      />
      <div className="flex flex-col p-7 sm:p-10">
        <h2 id={`profile-${example.id}`} className="text-3xl font-semibold">
          {example.title}
        </h2>
        <p className="mt-1 text-muted">
          {new Date(example.born).getFullYear()} – {new Date(example.date).getFullYear()}
        </p>
        <p className="mt-5 font-serif text-xl leading-relaxed italic">{example.description}</p>
        <ExampleFacts example={example} className="mt-5 gap-x-5" />
        <p className="mt-5 leading-relaxed">{example.story}</p>
        <figure className="mt-6 rounded-2xl bg-background-soft p-5">
          <Quote aria-hidden className="h-5 w-5 text-accent" />
          <blockquote className="mt-2 leading-relaxed">{example.memory.text}</blockquote>
          <figcaption className="mt-2 text-sm text-muted">— {example.memory.author}</figcaption>
        </figure>
        <ul className="mt-7 grid grid-cols-3 gap-3 text-center" aria-label="Op deze pagina">
          {stats.map(({ Icon, value, label }) => (
            <li key={label} className="rounded-2xl border border-border px-2 py-4">
              <Icon aria-hidden className="mx-auto h-5 w-5 text-accent" />
              <p className="mt-1 text-xl font-semibold">{formatNumber(value)}</p>
              <p className="text-xs text-muted">{label}</p>
            </li>
          ))}
        </ul>
        <Link
          to={routes.memorial(example.memorialId)}
          className={buttonClass('primary', 'md', 'mt-7 self-start')}
        >
          Bekijk de gedenkpagina van {example.title.split(' ')[0]}
          <ArrowRight aria-hidden className="h-4 w-4" />
        </Link>
      </div>
    </article>
  );
}
