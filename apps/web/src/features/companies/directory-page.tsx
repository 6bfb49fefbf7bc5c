import { useId, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Search } from 'lucide-react';
import { companyTypeLabels, routes, type Directory } from '@aandenken/contract';
import { Container, Eyebrow } from '../../components/ui/container.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { controlClass } from '../../components/form/form.tsx';
import { normaliseQuery, useDirectory } from './api.ts';

/**
 * `/uitvaartondernemers`: 'Vind een uitvaartondernemer', rendered on the server with the results for `?q=`
 * (a place name or a postcode). The search is a plain GET form, so it works before (or without) the script;
 * once the app runs it navigates without reloading.
 */
export default function DirectoryPage() {
  const [params] = useSearchParams();
  const q = normaliseQuery(params.get('q'));
  const directory = useDirectory(q);
  const navigate = useNavigate();
  const inputId = useId();

  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next = normaliseQuery(new FormData(e.currentTarget).get('q')?.toString());
    void navigate(
      next ? `${routes.companyDirectory}?${new URLSearchParams({ q: next })}` : routes.companyDirectory,
    );
  };

  return (
    <Container className="py-12 sm:py-16">
      <title>
        {q ? `${q} · Vind een uitvaartondernemer · Aandenken` : 'Vind een uitvaartondernemer · Aandenken'}
      </title>
      <meta
        name="description"
        content="Zoek een uitvaartondernemer die met Aandenken werkt, op plaatsnaam of postcode."
      />
      <Eyebrow>Partners van Aandenken</Eyebrow>
      <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">Vind een uitvaartondernemer</h1>
      <p className="mt-3 max-w-2xl text-lg text-muted">
        Zoek op je woonplaats of postcode. Je ziet de uitvaartondernemers en dienstverleners die daar werken
        en met Aandenken gedenkpagina’s maken.
      </p>
      <form
        method="get"
        action={routes.companyDirectory}
        role="search"
        onSubmit={search}
        className="mt-8 flex max-w-2xl flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium">
            Plaats of postcode
          </label>
          <input
            key={q}
            id={inputId}
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            autoComplete="address-level2"
            placeholder="Bijvoorbeeld Utrecht of 3512 JE"
            className={`${controlClass} h-12`}
          />
        </div>
        <Button type="submit" size="lg">
          <Search aria-hidden className="h-4 w-4" />
          Zoeken
        </Button>
      </form>

      <QueryState
        query={directory}
        skeleton={<PageSpinner />}
        error="De uitvaartondernemers konden niet worden geladen."
      >
        {(data) => <Results data={data} />}
      </QueryState>
    </Container>
  );
}

function summary(d: Directory): string {
  const n = d.items.length;
  const count = n === 1 ? '1 uitvaartondernemer' : `${n} uitvaartondernemers`;
  if (d.match === 'all')
    return n === 0 ? 'Er zijn nog geen partners.' : `${count} ${n === 1 ? 'werkt' : 'werken'} met Aandenken.`;
  if (d.match === 'unknown')
    return `We kennen geen plaats of postcode ‘${d.query}’. Probeer de naam van je woonplaats of een postcode zoals 3512 JE.`;
  const where =
    d.match === 'postcode'
      ? `postcode ${d.query}`
      : d.municipalities.length === 1
        ? `de gemeente ${d.municipalities[0]}`
        : `de gemeenten ${d.municipalities.join(', ')}`;
  return n === 0
    ? `Er zijn (nog) geen partners die in ${where} werken. Probeer een plaats in de buurt, of neem contact met ons op.`
    : `${count} in ${where}.`;
}

function Results({ data }: { data: Directory }) {
  return (
    <section aria-labelledby="resultaten-titel" className="mt-10">
      <h2 id="resultaten-titel" className="sr-only">
        Resultaten
      </h2>
      <p role="status" className="text-lg">
        {summary(data)}
      </p>
      {data.items.length === 0 && data.match !== 'all' && (
        <Link to={routes.contact} className={buttonClass('outline', 'md', 'mt-4')}>
          Neem contact op
        </Link>
      )}
      {data.items.length > 0 && (
        <ul className="mt-6 grid gap-5 sm:grid-cols-2">
          {data.items.map((c) => (
            <li key={c.slug}>
              <article className="relative flex h-full gap-4 rounded-2xl border border-border bg-card p-5 shadow-soft hover:bg-secondary/40">
                {c.logo && (
                  <img
                    src={c.logo.url}
                    srcSet={c.logo.srcSet}
                    sizes="80px"
                    alt=""
                    loading="lazy"
                    className="h-16 w-20 shrink-0 rounded-lg border border-border bg-white object-contain p-1"
                  />
                )}
                <div className="min-w-0">
                  <h3 className="text-lg font-semibold">
                    <Link
                      to={routes.companyPage(c.slug)}
                      className="rounded-sm after:absolute after:inset-0 after:content-[''] hover:underline"
                    >
                      {c.name}
                    </Link>
                  </h3>
                  <p className="text-sm text-muted">
                    {companyTypeLabels[c.companyType]}
                    {c.city ? ` · ${c.city}` : ''}
                  </p>
                  {c.description && <p className="mt-2 line-clamp-3 text-sm">{c.description}</p>}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
