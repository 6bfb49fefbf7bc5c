import { lazy, Suspense, useEffect, useState } from 'react';
import { Flame } from 'lucide-react';
import { remembranceDayLabels, type Memorial, type RemembranceDay } from '@aandenken/contract';
import { Container } from '../../../components/ui/container.tsx';
import { serviceDateNl } from '../../../lib/memorials/services.ts';
import { momentHours, momentIsOn, useRemembrance } from '../../../lib/memorials/remembrance.ts';

// The live panel: its own chunk, fetched when a moment is near and shown while it is on.
const loadLive = () => import('./candle-moment-live.tsx');
const CandleMomentLive = lazy(loadLive);

/** A moment this close counts as near: the live panel's code is fetched ahead. */
const NEAR_MS = 30 * 60_000;

function dayText(d: RemembranceDay, firstName: string): string {
  switch (d.kind) {
    case 'allerzielen':
      return 'De dag waarop we al onze doden gedenken.';
    case 'wereldlichtjesdag':
      return `Om ${d.time} uur branden overal ter wereld kaarsjes voor kinderen die zijn overleden.`;
    case 'verjaardag':
      return `${firstName} zou ${d.years} jaar zijn geworden.`;
    case 'sterfdag':
      return d.years === 1 ? 'Een jaar geleden overleden.' : `${d.years} jaar geleden overleden.`;
  }
}

/**
 * 'Samen herdenken' (docs/funeral-day.md): the kaarsjesmomenten the family planned and the next
 * remembrance days. Loaded after the page (its own chunk), never in the server's HTML; the live panel is
 * another chunk still, loaded only when a moment is near or on.
 */
export default function RemembranceSection({ memorial }: { memorial: Memorial }) {
  const remembrance = useRemembrance(memorial.id);
  const [now, setNow] = useState(() => Date.now());
  const moments = (remembrance.data?.moments ?? []).filter((m) => Date.parse(m.endsAt) > now);
  const next = moments[0];
  const nextStart = next ? Date.parse(next.startsAt) : null;
  const nextEnd = next ? Date.parse(next.endsAt) : null;

  // Wakes when the next moment comes near, starts or ends (nothing runs when none is planned).
  useEffect(() => {
    if (nextStart === null || nextEnd === null) return;
    const at = [nextStart - NEAR_MS, nextStart, nextEnd].find((t) => t > now);
    if (at === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(at - now + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [nextStart, nextEnd, now]);

  const on = next && momentIsOn(next, now);
  useEffect(() => {
    if (nextStart !== null && nextStart - now <= NEAR_MS) void loadLive();
  }, [nextStart, now]);

  if (!remembrance.data) return null;
  const days = remembrance.data.days;
  return (
    <section
      aria-labelledby="remembrance-heading"
      className="border-t border-border bg-background py-12 sm:py-16"
    >
      <Container>
        <h2 id="remembrance-heading" className="text-3xl font-semibold sm:text-4xl">
          Samen herdenken
        </h2>
        {on && next ? (
          <Suspense fallback={null}>
            <CandleMomentLive
              key={next.id}
              memorial={memorial}
              moment={next}
              onEnded={() => {
                setNow(Date.now());
                void remembrance.refetch();
              }}
            />
          </Suspense>
        ) : null}
        {moments.filter((m) => m !== next || !on).length > 0 && (
          <ul className="mt-6 flex flex-col gap-3" aria-label="Kaarsjesmomenten">
            {moments
              .filter((m) => m !== next || !on)
              .map((m) => (
                <li
                  key={m.id}
                  className="flex items-start gap-4 rounded-2xl border border-border bg-card p-4 sm:p-5"
                >
                  <Flame aria-hidden className="mt-1 h-5 w-5 shrink-0 text-accent" />
                  <div>
                    <p className="font-semibold">Kaarsjesmoment{m.title ? `: ${m.title}` : ''}</p>
                    <p className="text-sm text-muted">
                      {serviceDateNl(m.date)}, {momentHours(m)} uur
                    </p>
                    <p className="mt-1 text-sm">
                      Steek op dat moment samen een kaarsje aan. Wie de pagina dan open heeft, ziet de
                      kaarsjes live verschijnen.
                    </p>
                  </div>
                </li>
              ))}
          </ul>
        )}
        <h3 className="mt-8 font-sans text-sm font-semibold tracking-[0.18em] text-accent uppercase">
          Herdenkingsdagen
        </h3>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2" aria-label="Herdenkingsdagen">
          {days.map((d) => (
            <li key={d.kind} className="rounded-2xl border border-border p-4">
              <p className="font-semibold">{remembranceDayLabels[d.kind]}</p>
              <p className="text-sm text-muted">
                {serviceDateNl(d.date)}
                {d.time ? `, ${d.time} uur` : ''}
              </p>
              <p className="mt-1 text-sm">{dayText(d, memorial.firstName)}</p>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
