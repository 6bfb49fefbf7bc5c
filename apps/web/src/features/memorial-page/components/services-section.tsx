import { lazy, Suspense, useState } from 'react';
import { CalendarPlus, Clock, MapPin, Video } from 'lucide-react';
import { serviceKindLabels, type Memorial, type MemorialService } from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { serviceDateNl } from '../../../lib/memorials/services.ts';
import { useDownloadCalendar, useServices } from '../api/services.ts';

const closesNl = (iso: string) =>
  new Intl.DateTimeFormat('nl-NL', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Amsterdam',
  }).format(new Date(iso));

// The sign-up form (the form library, ~17 KB gzip) is a chunk of its own, loaded when a service takes sign-ups.
const RsvpForm = lazy(() => import('./rsvp-form.tsx'));

/**
 * The services of the funeral day (docs/funeral-day.md): `upcoming` high on the page before the day,
 * `past` below the memories from the day on. Loaded after the page (its own chunk), never rendered on the
 * server, so the page's own budget and cached HTML stay as they were.
 */
export default function ServicesSection({
  memorial,
  placement,
  defaultName,
}: {
  memorial: Memorial;
  placement: 'upcoming' | 'past';
  defaultName: string;
}) {
  const services = useServices(memorial.id);
  const items = (services.data?.services ?? []).filter((s) =>
    placement === 'upcoming' ? !s.dayReached : s.dayReached,
  );
  if (services.isError && placement === 'upcoming')
    return (
      <Container className="py-6">
        <p role="alert" className="text-sm text-danger">
          De gegevens van de uitvaart konden niet worden geladen. {services.error.message}
        </p>
      </Container>
    );
  if (items.length === 0) return null;
  const headingId = `services-${placement}`;
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        'border-t border-border py-12 sm:py-16',
        placement === 'upcoming' ? 'bg-background-soft' : 'bg-background',
      )}
    >
      <Container>
        <h2 id={headingId} className="text-3xl font-semibold sm:text-4xl">
          {placement === 'upcoming' ? 'Uitvaart en afscheid' : 'De uitvaart'}
        </h2>
        <ul className="mt-8 grid gap-6 lg:grid-cols-2">
          {items.map((s) => (
            <li key={s.id}>
              <ServiceCard memorial={memorial} service={s} defaultName={defaultName} />
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

function ServiceCard({
  memorial,
  service: s,
  defaultName,
}: {
  memorial: Memorial;
  service: MemorialService;
  defaultName: string;
}) {
  const calendar = useDownloadCalendar(memorial.id);
  const titleId = `service-${s.id}`;
  return (
    <article
      aria-labelledby={titleId}
      className="rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8"
    >
      <h3 id={titleId} className="text-2xl font-semibold">
        {serviceKindLabels[s.kind]}
      </h3>
      <p className="mt-3 flex items-start gap-2">
        <Clock aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
        <span>
          {serviceDateNl(s.date)}, {s.startTime}
          {s.endTime ? `–${s.endTime}` : ''} uur
        </span>
      </p>
      <p className="mt-2 flex items-start gap-2">
        <MapPin aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
        <span>
          <span className="font-medium">{s.placeName}</span>
          <br />
          {s.address}
          <br />
          <a
            href={s.mapUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-sm font-medium text-primary underline underline-offset-4"
          >
            Bekijk op de kaart<span className="sr-only"> (OpenStreetMap, opent in een nieuw venster)</span>
          </a>
        </span>
      </p>
      {s.livestreamUrl && (
        <p className="mt-2 flex items-start gap-2">
          <Video aria-hidden className="mt-1 h-4 w-4 shrink-0 text-muted" />
          <a
            href={s.livestreamUrl}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-primary underline underline-offset-4"
          >
            Kijk mee via de livestream
          </a>
        </p>
      )}
      {s.programme && (
        <div className="mt-5">
          <h4 className="font-sans text-sm font-semibold tracking-wide text-accent uppercase">Programma</h4>
          <p className="mt-1 whitespace-pre-line">{s.programme}</p>
        </div>
      )}
      {s.afterText && (
        <div className="mt-5">
          <h4 className="font-sans text-sm font-semibold tracking-wide text-accent uppercase">Na afloop</h4>
          <p className="mt-1 whitespace-pre-line">{s.afterText}</p>
        </div>
      )}
      <div className="mt-6">
        <Button
          variant="outline"
          size="sm"
          onClick={() => calendar.mutate(s)}
          disabled={calendar.isPending}
          aria-describedby={titleId}
        >
          <CalendarPlus aria-hidden className="h-4 w-4" />
          Zet in je agenda
        </Button>
        {calendar.isError && (
          <p role="alert" className="mt-2 text-sm text-danger">
            Het agendabestand kon niet worden gemaakt. {calendar.error.message}
          </p>
        )}
      </div>
      {s.rsvpOpen && <RsvpBlock memorial={memorial} service={s} defaultName={defaultName} />}
    </article>
  );
}

function RsvpBlock({
  memorial,
  service: s,
  defaultName,
}: {
  memorial: Memorial;
  service: MemorialService;
  defaultName: string;
}) {
  const [done, setDone] = useState<{ name: string; people: number } | null>(null);
  const [closed, setClosed] = useState(!s.rsvpAccepting);
  const headingId = `rsvp-${s.id}`;
  return (
    <div className="mt-6 border-t border-border pt-6">
      <h4 id={headingId} className="text-lg font-semibold">
        Aanmelden voor na afloop
      </h4>
      {closed ? (
        <p className="mt-2 text-muted">Aanmelden is gesloten.</p>
      ) : done ? (
        <p role="status" className="mt-2">
          Dank je wel, {done.name}. Je bent aangemeld met {done.people}{' '}
          {done.people === 1 ? 'persoon' : 'personen'}.
        </p>
      ) : (
        <>
          {s.rsvpClosesAt && (
            <p className="mt-1 text-sm text-muted">Aanmelden kan tot {closesNl(s.rsvpClosesAt)}.</p>
          )}
          <Suspense fallback={null}>
            <RsvpForm
              memorial={memorial}
              service={s}
              defaultName={defaultName}
              headingId={headingId}
              onDone={setDone}
              onClosed={() => setClosed(true)}
            />
          </Suspense>
        </>
      )}
    </div>
  );
}
