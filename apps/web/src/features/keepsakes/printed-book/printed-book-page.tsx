import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AlertTriangle, ArrowLeft, BookOpen, Download, Eye, RefreshCw } from 'lucide-react';
import { PRINTED_BOOK_DPI, roleAtLeast, routes, type PrintedBookState } from '@aandenken/contract';
import { MemorialUnavailable } from '../../../components/memorial/memorial-unavailable.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { PageSpinner } from '../../../components/ui/spinner.tsx';
import { useSignInRequired } from '../../../components/auth/sign-in-required.ts';
import { formatCount, formatDate, formatNumber } from '../../../lib/format.ts';
import { fullName } from '../../../lib/memorials/life.ts';
import { useMemorial } from '../../../lib/memorials/queries.ts';
import { usePrintedBook, useRequestPrintedBook } from './api.ts';

const cardClass = 'rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8';
const megabytes = (bytes: number) => `${formatNumber(Math.max(0.1, Math.round(bytes / 100_000) / 10))} MB`;

/** /memorial/{id}/boek: the printed book (Premium) for owners and editors. */
export default function PrintedBookPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const memorial = useMemorial(id, auth.status === 'authenticated');

  const m = memorial.data;
  const allowed = !!m && roleAtLeast(m.role, 'editor');
  const book = usePrintedBook(id, allowed);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError || !m || !allowed) return <MemorialUnavailable />;

  return (
    <Container className="max-w-4xl py-10 sm:py-14">
      <title>{`Gedrukt boek voor ${fullName(m)} · Aandenken`}</title>
      <Link
        to={routes.memorialManage(m.id)}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar beheren
      </Link>
      <h1 className="mt-3 font-serif text-3xl font-semibold sm:text-4xl">
        <span className="block font-sans text-base font-normal text-muted sm:text-lg">Gedrukt boek</span>
        {fullName(m)}
      </h1>
      <p className="mt-4 max-w-2xl leading-relaxed text-muted">
        Een drukklaar boek in A5: een omslag met foto, naam en jaren, het levensverhaal, de herinneringen met
        wie ze schreef en hun foto’s, en het aantal kaarsjes en bloemen. Je kunt het zelf afdrukken of naar
        een drukkerij sturen. We maken het op de achtergrond en mailen je zodra het klaar is.
      </p>
      <div className="mt-8">
        <QueryState
          query={book}
          skeleton={<Skeleton className="h-72 rounded-3xl" />}
          error="De stand van het boek kon niet worden geladen."
        >
          {(state) =>
            state.available ? (
              <BookPanel memorialId={m.id} state={state} />
            ) : (
              <section className={cardClass} aria-labelledby="boek-premium">
                <h2 id="boek-premium" className="text-xl font-semibold">
                  Het gedrukte boek hoort bij Premium
                </h2>
                <p className="mt-2 max-w-2xl text-sm leading-relaxed text-muted">
                  Deze gedenkpagina heeft het Basis-abonnement. Met Premium maak je van de pagina een boek om
                  te drukken.
                </p>
                <Link
                  to={routes.memorialManage(m.id, 'abonnement')}
                  className={`${buttonClass('primary', 'md')} mt-5`}
                >
                  Bekijk Premium
                </Link>
              </section>
            )
          }
        </QueryState>
      </div>
    </Container>
  );
}

function BookPanel({ memorialId, state }: { memorialId: string; state: PrintedBookState }) {
  const request = useRequestPrintedBook(memorialId);
  const [bleed, setBleed] = useState(state.bleed);
  const [cropMarks, setCropMarks] = useState(state.cropMarks);
  const headingId = useId();
  const progressId = useId();
  const busy = request.isPending || state.status === 'queued' || state.status === 'rendering';

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby={headingId} className={cardClass}>
        <h2 id={headingId} className="text-xl font-semibold sm:text-2xl">
          {state.status === 'none' ? 'Het boek maken' : 'Je boek'}
        </h2>
        <div className="mt-4 flex flex-col gap-4" aria-live="polite">
          {state.status === 'queued' || state.status === 'rendering' ? (
            <div role="status" className="flex flex-col gap-2">
              <p id={progressId} className="flex items-center gap-2 text-sm">
                <RefreshCw aria-hidden className="h-4 w-4 animate-spin motion-reduce:animate-none" />
                {state.status === 'queued'
                  ? 'In de wachtrij…'
                  : `Het boek wordt opgemaakt… ${state.progress}%`}
              </p>
              <progress
                aria-labelledby={progressId}
                max={100}
                value={state.progress}
                className="h-2 w-full max-w-md accent-[var(--primary)]"
              />
            </div>
          ) : state.status === 'ready' && state.downloadUrl ? (
            <div className="flex flex-col gap-2">
              <p className="text-sm">
                Klaar op {formatDate(state.finishedAt ?? state.requestedAt ?? new Date())}:{' '}
                {formatCount(state.pageCount ?? 0, 'pagina', 'pagina’s')} in A5
                {state.bleed ? ', met 3 mm afloop' : ''}
                {state.cropMarks ? ' en snijtekens' : ''}.
              </p>
              <div>
                <a href={state.downloadUrl} download className={buttonClass('primary', 'md')}>
                  <Download aria-hidden className="h-4 w-4" />
                  Download het boek (pdf{state.sizeBytes ? `, ${megabytes(state.sizeBytes)}` : ''})
                </a>
              </div>
            </div>
          ) : state.status === 'failed' ? (
            <p className="text-sm text-danger" role="alert">
              Het boek kon niet worden gemaakt. Probeer het opnieuw.
            </p>
          ) : null}
          {request.isError && (
            <p className="text-sm text-danger" role="alert">
              {request.error instanceof Error
                ? request.error.message
                : 'Dat lukte niet. Probeer het opnieuw.'}
            </p>
          )}
          {!busy && (
            <form
              className="flex flex-col gap-4"
              onSubmit={(e) => {
                e.preventDefault();
                request.mutate({ bleed, cropMarks });
              }}
            >
              <fieldset className="flex flex-col gap-3">
                <legend className="text-sm font-semibold">
                  Voor de drukkerij (niet nodig om zelf te printen)
                </legend>
                <label className="flex gap-3 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 h-5 w-5 shrink-0 accent-[var(--primary)]"
                    checked={bleed}
                    onChange={(e) => setBleed(e.target.checked)}
                  />
                  <span>
                    Afloop van 3 mm
                    <span className="block text-muted">
                      De omslagfoto loopt door tot voorbij de snijrand.
                    </span>
                  </span>
                </label>
                <label className="flex gap-3 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 h-5 w-5 shrink-0 accent-[var(--primary)]"
                    checked={cropMarks}
                    onChange={(e) => setCropMarks(e.target.checked)}
                  />
                  <span>
                    Snijtekens
                    <span className="block text-muted">
                      Streepjes in de hoeken die laten zien waar gesneden wordt.
                    </span>
                  </span>
                </label>
              </fieldset>
              <div>
                <Button type="submit" variant={state.status === 'ready' ? 'outline' : 'primary'}>
                  <BookOpen aria-hidden className="h-4 w-4" />
                  {state.status === 'none' ? 'Maak het boek' : 'Maak het boek opnieuw'}
                </Button>
              </div>
            </form>
          )}
        </div>
      </section>

      {state.status === 'ready' && state.warnings.length > 0 && (
        <section aria-labelledby="boek-waarschuwingen" className={cardClass}>
          <h2 id="boek-waarschuwingen" className="flex items-center gap-2 text-lg font-semibold">
            <AlertTriangle aria-hidden className="h-5 w-5 text-accent" />
            {formatCount(state.warnings.length, 'foto is', 'foto’s zijn')} te klein voor {PRINTED_BOOK_DPI}{' '}
            dpi
          </h2>
          <p className="mt-1 text-sm text-muted">
            Ze staan wel in het boek, maar kunnen onscherp worden afgedrukt.
          </p>
          <ul className="mt-3 flex list-disc flex-col gap-1.5 pl-5 text-sm">
            {state.warnings.map((w) => (
              <li key={`${w.mediaId}-${w.where}`}>{w.message}</li>
            ))}
          </ul>
        </section>
      )}

      {state.status === 'ready' && state.previewUrl && <Preview url={state.previewUrl} />}
    </div>
  );
}

/** The first pages in the browser's own PDF viewer, loaded when asked for (the PDF can be large). */
function Preview({ url }: { url: string }) {
  const [shown, setShown] = useState(false);
  const frameId = useId();
  return (
    <section aria-labelledby="boek-voorbeeld" className={cardClass}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="boek-voorbeeld" className="text-lg font-semibold">
          Voorbeeld
        </h2>
        <Button
          variant="outline"
          aria-expanded={shown}
          aria-controls={frameId}
          onClick={() => setShown((v) => !v)}
        >
          <Eye aria-hidden className="h-4 w-4" />
          {shown ? 'Voorbeeld verbergen' : 'Voorbeeld tonen'}
        </Button>
      </div>
      <p className="mt-1 text-sm text-muted">
        Bekijk de eerste pagina’s hier, of{' '}
        <a href={url} target="_blank" rel="noreferrer" className="text-primary underline">
          open het boek in een nieuw tabblad
        </a>
        .
      </p>
      <div id={frameId}>
        {shown && (
          <iframe
            title="Voorbeeld van het boek"
            src={`${url}#page=1&view=FitH`}
            className="mt-4 h-[70vh] min-h-96 w-full rounded-xl border border-border bg-white"
          />
        )}
      </div>
    </section>
  );
}
