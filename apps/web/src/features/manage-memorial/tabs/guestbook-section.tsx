import { useState } from 'react';
import { Link } from 'react-router';
import { BookOpen, Copy, Download, Eye, EyeOff, Lock, Printer } from 'lucide-react';
import { routes, type Memorial } from '@aandenken/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import {
  useExportGuestbook,
  useGuestbook,
  useGuestbookLive,
  useHideEntry,
  useSetGuestbookOpen,
} from '../api/guestbook.ts';
import { QrCode } from '../components/qr-code.tsx';
import { errorText, Section } from '../components/section.tsx';

const when = new Intl.DateTimeFormat('nl-NL', {
  timeZone: 'Europe/Amsterdam',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * 'Condoleanceregister' on the Uitvaart tab (docs/funeral-day.md): open or close the digital guestbook, its
 * short link and QR code, the poster to print, the entries as they come in (live), hiding one, the exports.
 */
export function GuestbookSection({ memorial }: { memorial: Memorial }) {
  const query = useGuestbook(memorial.id);
  const setOpen = useSetGuestbookOpen(memorial.id);
  const gb = query.data?.guestbook ?? null;
  const live = useGuestbookLive(memorial.id, gb !== null);
  // Said in the section itself, not in a toast: a toast would lie over the QR code that appears with it.
  const [notice, setNotice] = useState('');
  const toggle = (open: boolean) =>
    setOpen.mutate(open, {
      onSuccess: () =>
        setNotice(open ? 'Het condoleanceregister is open.' : 'Het condoleanceregister is gesloten.'),
      onError: (e) => toast.error('Dat lukte niet', errorText(e)),
    });
  return (
    <Section
      title="Condoleanceregister"
      description="Bezoekers scannen op de dag zelf de QR-code of openen de korte link, en schrijven hun naam, een bericht en eventueel hun adres voor een bedankkaart. Zonder account en zonder toegangscode. Jullie zien de inschrijvingen hier binnenkomen."
      actions={
        gb && (
          <Button
            variant={gb.open ? 'outline' : 'primary'}
            onClick={() => toggle(!gb.open)}
            disabled={setOpen.isPending}
          >
            {gb.open ? (
              <Lock aria-hidden className="h-4 w-4" />
            ) : (
              <BookOpen aria-hidden className="h-4 w-4" />
            )}
            {gb.open ? 'Register sluiten' : 'Register weer openen'}
          </Button>
        )
      }
    >
      <p
        role="status"
        data-testid="guestbook-notice"
        className={notice ? 'mb-4 text-sm font-medium text-success' : 'sr-only'}
      >
        {notice}
      </p>
      <QueryState
        query={query}
        skeleton={<Skeleton className="h-24 rounded-2xl" />}
        error="Het condoleanceregister kon niet worden geladen."
      >
        {(data) =>
          !data.guestbook ? (
            data.allowed ? (
              <Button onClick={() => toggle(true)} disabled={setOpen.isPending}>
                <BookOpen aria-hidden className="h-4 w-4" />
                Register openen
              </Button>
            ) : (
              <p className="text-sm">
                Het digitale condoleanceregister hoort bij Premium.{' '}
                <Link
                  to={routes.memorialManage(memorial.id, 'abonnement')}
                  className="font-medium text-primary underline"
                >
                  Bekijk het abonnement
                </Link>
              </p>
            )
          ) : (
            <GuestbookOpen memorial={memorial} guestbook={data.guestbook} live={live} />
          )
        }
      </QueryState>
    </Section>
  );
}

type Book = NonNullable<NonNullable<ReturnType<typeof useGuestbook>['data']>['guestbook']>;

function GuestbookOpen({
  memorial,
  guestbook: gb,
  live,
}: {
  memorial: Memorial;
  guestbook: Book;
  live: boolean;
}) {
  const hide = useHideEntry(memorial.id);
  const exportBook = useExportGuestbook(memorial.id);
  const shown = gb.entries.filter((e) => !e.hidden).length;
  const exportAs = (kind: 'csv' | 'pdf') =>
    exportBook.mutate(kind, {
      onError: (e) => toast.error('De export kon niet worden gemaakt', errorText(e)),
    });
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 sm:grid-cols-[auto_minmax(0,1fr)]">
        <QrCode
          value={gb.url}
          label="QR-code van het condoleanceregister"
          testId="guestbook-qr"
          className="h-40 w-40 rounded-xl"
        />
        <div className="flex min-w-0 flex-col gap-3">
          <p className="text-sm">
            Het register is <strong data-testid="guestbook-state">{gb.open ? 'open' : 'gesloten'}</strong>.
            {!gb.open && ' Bezoekers kunnen niet meer tekenen.'}
          </p>
          <div>
            <p className="text-sm text-muted">Korte link</p>
            <p className="font-medium break-all" data-testid="guestbook-url">
              {gb.url}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(gb.url)
                  .then(() => toast.success('De link is gekopieerd'))
                  .catch(() => toast.error('Kopiëren lukte niet'))
              }
            >
              <Copy aria-hidden className="h-4 w-4" />
              Link kopiëren
            </Button>
            <Link to={routes.memorialGuestbookPoster(memorial.id)} className={buttonClass('outline', 'sm')}>
              <Printer aria-hidden className="h-4 w-4" />
              Poster en tafelkaart
            </Link>
            <Button
              variant="outline"
              size="sm"
              onClick={() => exportAs('pdf')}
              disabled={exportBook.isPending}
            >
              <Download aria-hidden className="h-4 w-4" />
              Exporteren (PDF)
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => exportAs('csv')}
              disabled={exportBook.isPending}
            >
              <Download aria-hidden className="h-4 w-4" />
              Exporteren (CSV)
            </Button>
          </div>
        </div>
      </div>

      <section aria-labelledby="guestbook-entries" className="border-t border-border pt-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="guestbook-entries" className="text-lg font-semibold">
            Inschrijvingen
          </h3>
          <span className={cn('text-sm', live ? 'text-success' : 'text-muted')} data-testid="guestbook-live">
            {live ? 'Live: nieuwe inschrijvingen verschijnen vanzelf' : 'Verbinden…'}
          </span>
        </div>
        <p className="mt-1 text-sm text-muted" aria-live="polite">
          {shown === 1 ? '1 inschrijving' : `${shown} inschrijvingen`}
          {gb.entries.length > shown && ` (${gb.entries.length - shown} verborgen)`}
        </p>
        {gb.entries.length === 0 ? (
          <p className="mt-3 text-sm text-muted">Nog niemand heeft het register getekend.</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-3" aria-label="Inschrijvingen in het register">
            {[...gb.entries].reverse().map((e) => (
              <li
                key={e.id}
                className={cn('rounded-2xl border border-border p-4', e.hidden && 'bg-background-soft')}
              >
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className={cn('font-semibold', e.hidden && 'text-muted line-through')}>{e.name}</p>
                    <p className="text-xs text-muted">
                      {when.format(new Date(e.createdAt))}
                      {e.hidden && ' · verborgen, niet in de export'}
                    </p>
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`${e.hidden ? 'Weer tonen' : 'Verbergen'}: ${e.name}`}
                    disabled={hide.isPending}
                    onClick={() =>
                      hide.mutate(
                        { id: e.id, hidden: !e.hidden },
                        { onError: (err) => toast.error('Dat lukte niet', errorText(err)) },
                      )
                    }
                  >
                    {e.hidden ? (
                      <Eye aria-hidden className="h-4 w-4" />
                    ) : (
                      <EyeOff aria-hidden className="h-4 w-4" />
                    )}
                    {e.hidden ? 'Tonen' : 'Verbergen'}
                  </Button>
                </div>
                {!e.hidden && e.message && <p className="mt-2 whitespace-pre-line">{e.message}</p>}
                {!e.hidden && e.address && (
                  <p className="mt-2 text-sm whitespace-pre-line text-muted">
                    <span className="sr-only">Adres: </span>
                    {e.address}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
