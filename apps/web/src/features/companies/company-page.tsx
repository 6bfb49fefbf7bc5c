import { Link, useParams } from 'react-router';
import { ArrowLeft, Globe, Mail, MapPin, Phone } from 'lucide-react';
import { companyTypeLabels, formatEuro, routes, type PublicCompany } from '@aandenken/contract';
import { Container, Eyebrow } from '../../components/ui/container.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { usePublicCompany } from './api.ts';
import { lifeYears } from '../../lib/memorials/life.ts';
import { CaredPages } from './cared-pages.tsx';

/**
 * `/uitvaartondernemers/{slug}`: an active company's public page, rendered on the server
 * (apps/server/src/modules/site/company-ssr.ts) and hydrated here; a suspended or unknown company is the
 * not-found screen with HTTP 404 (rendered by the server too, with `null` for the company's data, so the
 * browser hydrates the same screen).
 */
export default function CompanyPage() {
  const { slug = '' } = useParams();
  const company = usePublicCompany(slug);
  if (company.data === null) return <CompanyNotFound />;
  return (
    <Container className="py-10 sm:py-14">
      <Link
        to={routes.companyDirectory}
        className="inline-flex items-center gap-2 rounded-sm text-sm font-medium text-muted hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Alle uitvaartondernemers
      </Link>
      <QueryState query={company} skeleton={<PageSpinner />} error="Dit bedrijf kon niet worden geladen.">
        {(c) => c && <CompanyView company={c} />}
      </QueryState>
    </Container>
  );
}

function CompanyView({ company: c }: { company: PublicCompany }) {
  const place = c.city ?? c.postalCode;
  return (
    <article aria-labelledby="bedrijf-titel" className="mt-6">
      <title>{`${c.name} · Uitvaartondernemers · Aandenken`}</title>
      <meta
        name="description"
        content={c.description?.slice(0, 160) ?? `${companyTypeLabels[c.companyType]} in ${place}.`}
      />
      <header className="flex flex-col gap-6 sm:flex-row sm:items-center">
        {c.logo && (
          <img
            src={c.logo.url}
            srcSet={c.logo.srcSet}
            sizes="160px"
            width={c.logo.width}
            height={c.logo.height}
            alt={`Logo van ${c.name}`}
            className="h-auto max-h-32 w-40 rounded-xl border border-border bg-white object-contain p-2"
          />
        )}
        <div>
          <Eyebrow>{companyTypeLabels[c.companyType]}</Eyebrow>
          <h1 id="bedrijf-titel" className="mt-2 text-3xl font-semibold sm:text-4xl">
            {c.name}
          </h1>
          {c.city && <p className="mt-2 text-lg text-muted">{c.city}</p>}
        </div>
      </header>

      <div className="mt-10 grid gap-10 lg:grid-cols-[1.6fr_1fr]">
        <div>
          {c.description && (
            <section aria-labelledby="over-titel">
              <h2 id="over-titel" className="text-2xl font-semibold">
                Over ons
              </h2>
              <p className="mt-3 leading-relaxed whitespace-pre-line">{c.description}</p>
            </section>
          )}

          <section aria-labelledby="prijzen-titel" className={c.description ? 'mt-10' : undefined}>
            <h2 id="prijzen-titel" className="text-2xl font-semibold">
              Prijzen
            </h2>
            {c.prices.length === 0 ? (
              <p className="mt-3 text-muted">Dit bedrijf heeft (nog) geen prijzen opgegeven.</p>
            ) : (
              <ul className="mt-4 grid gap-3">
                {c.prices.map((p, i) => (
                  <li key={i} className="rounded-2xl border border-border bg-card p-5">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <h3 className="text-lg font-semibold">{p.name}</h3>
                      <p className="text-lg font-semibold">{formatEuro(p.amountCents)}</p>
                    </div>
                    {p.description && <p className="mt-1 text-muted">{p.description}</p>}
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="werkgebied-titel" className="mt-10">
            <h2 id="werkgebied-titel" className="text-2xl font-semibold">
              Werkgebied
            </h2>
            {c.workArea.municipalities.length === 0 && c.workArea.postcodeRanges.length === 0 ? (
              <p className="mt-3 text-muted">Dit bedrijf heeft (nog) geen werkgebied opgegeven.</p>
            ) : (
              <>
                {c.workArea.municipalities.length > 0 && (
                  <>
                    <h3 className="mt-4 font-semibold">Gemeenten</h3>
                    <ul className="mt-2 flex flex-wrap gap-2">
                      {c.workArea.municipalities.map((m) => (
                        <li key={m} className="rounded-full bg-secondary px-3 py-1 text-sm">
                          {m}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {c.workArea.postcodeRanges.length > 0 && (
                  <>
                    <h3 className="mt-4 font-semibold">Postcodes</h3>
                    <ul className="mt-2 flex flex-wrap gap-2">
                      {c.workArea.postcodeRanges.map((r) => (
                        <li key={`${r.from}-${r.to}`} className="rounded-full bg-secondary px-3 py-1 text-sm">
                          {r.from === r.to ? r.from : `${r.from} – ${r.to}`}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </>
            )}
          </section>

          <CaredPages
            pages={c.caredPages.map((p) => ({ id: p.id, slug: p.slug, name: p.name, years: lifeYears(p) }))}
          />
        </div>

        <aside aria-labelledby="contact-titel" className="h-fit rounded-3xl border border-border bg-card p-6">
          <h2 id="contact-titel" className="text-xl font-semibold">
            Contact
          </h2>
          <ul className="mt-4 flex flex-col gap-4">
            <li className="flex gap-3">
              <MapPin aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
              <address className="not-italic">
                {c.streetName} {c.houseNumber}
                <br />
                {c.postalCode} {c.city}
              </address>
            </li>
            <li className="flex gap-3">
              <Phone aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
              <a
                href={`tel:${c.phoneNumber.replace(/[^+0-9]/g, '')}`}
                className="underline-offset-2 hover:underline"
              >
                <span className="sr-only">Telefoon: </span>
                {c.phoneNumber}
              </a>
            </li>
            <li className="flex gap-3">
              <Mail aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
              <a href={`mailto:${c.email}`} className="break-all underline-offset-2 hover:underline">
                <span className="sr-only">E-mail: </span>
                {c.email}
              </a>
            </li>
            {c.website && (
              <li className="flex gap-3">
                <Globe aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
                <a
                  href={c.website}
                  rel="noopener noreferrer nofollow"
                  className="break-all underline-offset-2 hover:underline"
                >
                  <span className="sr-only">Website: </span>
                  {c.website.replace(/^https?:\/\//, '')}
                </a>
              </li>
            )}
          </ul>
        </aside>
      </div>
    </article>
  );
}

/** The site's not-found screen, for a company the API does not show. */
function CompanyNotFound() {
  return (
    <section className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center px-6 py-20 text-center">
      <title>Pagina niet gevonden · Aandenken</title>
      <p
        aria-hidden
        className="font-serif text-[7rem] leading-none font-semibold text-primary/80 sm:text-[9rem]"
      >
        404
      </p>
      <h1 className="mt-6 text-3xl sm:text-4xl">
        <span className="sr-only">404: </span>Oeps! Pagina niet gevonden
      </h1>
      <p className="mt-4 text-lg text-muted">De pagina die je zoekt bestaat niet of is verplaatst.</p>
      <Link to={routes.companyDirectory} className={buttonClass('primary', 'lg', 'mt-10')}>
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar alle uitvaartondernemers
      </Link>
    </section>
  );
}
