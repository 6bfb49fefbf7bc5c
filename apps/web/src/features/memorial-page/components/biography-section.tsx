import { Link } from 'react-router';
import { PenLine } from 'lucide-react';
import { routes, type Memorial } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useBiography } from '../../../lib/memorials/queries.ts';

/**
 * 'Levensverhaal'. The HTML comes from the server, which keeps only text structure (paragraphs, headings,
 * lists, quotes, https links) and drops everything else, so it is safe to render as it is.
 */
export function BiographySection({ memorial, canManage }: { memorial: Memorial; canManage: boolean }) {
  const bio = useBiography(memorial.id);
  if (bio.isError) return null;
  if (!bio.isPending && !bio.data.html && !canManage) return null;

  return (
    <section
      aria-labelledby="biography-heading"
      className="below-fold border-y border-border bg-card py-14 sm:py-20"
    >
      <Container className="max-w-3xl">
        <h2 id="biography-heading" className="text-center text-3xl font-semibold sm:text-4xl">
          Levensverhaal
        </h2>
        <div aria-hidden className="mx-auto mt-5 h-px w-16 bg-accent/60" />
        {bio.isPending ? (
          <div className="mt-10 flex flex-col gap-3">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-11/12" />
            <Skeleton className="h-4 w-4/5" />
          </div>
        ) : bio.data.html ? (
          <div className="memorial-prose mt-10" dangerouslySetInnerHTML={{ __html: bio.data.html }} />
        ) : (
          <div className="mt-10 rounded-2xl border border-dashed border-border p-8 text-center">
            <p className="text-muted">
              Er is nog geen levensverhaal. Vertel wie {memorial.firstName} was: waar het leven begon, wat
              telde, wat bleef.
            </p>
            <Link
              to={routes.memorialManage(memorial.id, 'levensverhaal')}
              className={buttonClass('secondary', 'md', 'mt-5')}
            >
              <PenLine aria-hidden className="h-4 w-4" />
              Schrijf het levensverhaal
            </Link>
          </div>
        )}
      </Container>
    </section>
  );
}
