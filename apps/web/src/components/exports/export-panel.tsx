import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, FileArchive, RefreshCw } from 'lucide-react';
import { apiPaths, EXPORT_LINK_TTL_DAYS, exportStateSchema, type ExportState } from '@aandenken/contract';
import { Button, buttonClass } from '../ui/button.tsx';
import { useApiClient } from '../../lib/api-client.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';

/** The state of one export, polled while it is being prepared; the request starts a new one. */
function useExport(path: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const key = ['export', path] as const;
  const state = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => client.get(path, { schema: exportStateSchema, signal }),
    refetchInterval: (q) => (q.state.data?.status === 'preparing' ? 3000 : false),
  });
  const request = useMutation({
    mutationFn: () => client.post(path, undefined, { schema: exportStateSchema }),
    onSuccess: (s) => queryClient.setQueryData<ExportState>(key, s),
  });
  return { state, request };
}

const megabytes = (bytes: number) => `${formatNumber(Math.max(0.1, Math.round(bytes / 100_000) / 10))} MB`;

function ExportPanel({
  path,
  title,
  description,
  what,
}: {
  path: string;
  title: string;
  description: string;
  what: string;
}) {
  const { state, request } = useExport(path);
  const headingId = useId();
  const s = state.data;
  const busy = request.isPending || s?.status === 'preparing';
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8"
    >
      <h2 id={headingId} className="text-xl font-semibold sm:text-2xl">
        {title}
      </h2>
      <p className="mt-1.5 max-w-2xl text-sm leading-relaxed text-muted">{description}</p>
      <div className="mt-6 flex flex-col gap-4" aria-live="polite">
        {state.isPending ? (
          <p className="text-sm text-muted">Even kijken…</p>
        ) : state.isError ? (
          <p className="text-sm text-danger" role="alert">
            De stand van de export kon niet worden geladen. Vernieuw de pagina om het opnieuw te proberen.
          </p>
        ) : s?.status === 'preparing' ? (
          <p className="flex items-center gap-2 text-sm" role="status">
            <RefreshCw aria-hidden className="h-4 w-4 animate-spin motion-reduce:animate-none" />
            Wordt voorbereid… Je krijgt een mail zodra {what} klaarstaat.
          </p>
        ) : s?.status === 'ready' && s.downloadUrl ? (
          <div className="flex flex-col gap-2">
            <a href={s.downloadUrl} download className={buttonClass('primary', 'md')}>
              <Download aria-hidden className="h-4 w-4" />
              Download het zip-bestand{s.sizeBytes ? ` (${megabytes(s.sizeBytes)})` : ''}
            </a>
            {s.expiresAt && (
              <p className="text-sm text-muted">
                De link werkt tot {formatDate(s.expiresAt)}. We hebben hem ook gemaild.
              </p>
            )}
          </div>
        ) : s?.status === 'failed' ? (
          <p className="text-sm text-danger" role="alert">
            Mislukt, probeer opnieuw.
          </p>
        ) : null}
        {!busy && (
          <div>
            <Button variant={s?.status === 'ready' ? 'outline' : 'primary'} onClick={() => request.mutate()}>
              <FileArchive aria-hidden className="h-4 w-4" />
              {s?.status === 'ready' || s?.status === 'failed'
                ? 'Maak een nieuwe export'
                : 'Export aanvragen'}
            </Button>
          </div>
        )}
        {/* Next to the button: why the request was refused (enough exports already being made, …). */}
        {request.isError && (
          <p className="text-sm text-danger" role="alert">
            {request.error instanceof Error
              ? request.error.message
              : 'De export kon niet worden aangevraagd. Probeer het opnieuw.'}
          </p>
        )}
      </div>
    </section>
  );
}

/** For owners on the manage screen: the whole page as a zip that opens offline. */
export function MemorialExportSection({ memorialId }: { memorialId: string }) {
  return (
    <ExportPanel
      path={apiPaths.memorialExport(memorialId)}
      title="De pagina bewaren"
      what="de export"
      description={`Download de hele gedenkpagina als zip-bestand: een kopie die zonder internet in je browser opent (index.html), met alle herinneringen, foto’s en video’s op volle grootte en de gegevens als JSON. Zo houdt de familie de pagina altijd, met of zonder ons. We maken het bestand op de achtergrond en mailen je een link die ${EXPORT_LINK_TTL_DAYS} dagen werkt.`}
    />
  );
}

/** For everyone signed in: everything they contributed or that is about their account (AVG). */
export function PersonalExportSection() {
  return (
    <ExportPanel
      path={apiPaths.personalExport()}
      title="Je gegevens downloaden"
      what="het bestand"
      description={`Download alles wat je bij ons hebt gedeeld of wat over je account gaat: je profiel, herinneringen, foto’s en video’s op volle grootte, kaarsjes, lidmaatschappen en de logregels over jou, als zip-bestand met JSON. We maken het op de achtergrond en mailen je een link die ${EXPORT_LINK_TTL_DAYS} dagen werkt.`}
    />
  );
}
