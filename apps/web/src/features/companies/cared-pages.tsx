import { Link } from 'react-router';
import { routes } from '@aandenken/contract';

/** A memorial page the company cared for, shown because the family agreed. */
export interface CaredPage {
  id: string;
  slug: string;
  name: string;
  /** e.g. '1942 – 2025' */
  years?: string | null;
}

/**
 * "Pagina's die wij verzorgden": the memorial pages the company cared for whose families agreed to be shown.
 * Nothing when there are none.
 */
export function CaredPages({ pages }: { pages: readonly CaredPage[] }) {
  if (pages.length === 0) return null;
  return (
    <section aria-labelledby="verzorgd-titel" className="mt-12">
      <h2 id="verzorgd-titel" className="text-2xl font-semibold">
        Pagina’s die wij verzorgden
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {pages.map((p) => (
          <li key={p.id}>
            <Link
              to={routes.memorialBySlug(p.slug)}
              className="block rounded-2xl border border-border bg-card p-4 font-medium hover:bg-secondary"
            >
              {p.name}
              {p.years && <span className="mt-1 block text-sm font-normal text-muted">{p.years}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
