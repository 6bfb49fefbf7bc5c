import { useEffect, useRef, useState } from 'react';
import {
  apiPaths,
  candleSchema,
  liveStateSchema,
  liveTogetherSchema,
  type Candle,
  type CandleMoment,
  type Memorial,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { readEventStream } from '../../../lib/event-stream.ts';
import { momentHours } from '../../../lib/memorials/remembrance.ts';
import { CandleArt } from './candle-art.tsx';

/** After a broken connection, connect again after this long. */
const RETRY_MS = 5_000;

/**
 * This page view, for the count of people: the server counts a visitor without an account once per page
 * view, not once per connection (reconnects keep it). Random, and gone with the page.
 */
const pageView = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : null;
const livePath = (memorialId: string) =>
  `${apiPaths.candleMomentLive(memorialId)}${pageView ? `?client=${pageView}` : ''}`;

type Live = { status: 'connecting' | 'live' | 'lost' | 'ended'; together: number | null; candles: Candle[] };

const togetherText = (n: number) =>
  n === 1
    ? 'Je bent hier nu alleen; wie de pagina opent, sluit bij je aan.'
    : `${n} mensen steken nu samen een kaarsje aan`;

/**
 * The kaarsjesmoment while it is on (docs/funeral-day.md, 'Samen herdenken'): the candles lit in this
 * hour appear as they are lit, with how many people have the page open. Server-sent events read with
 * fetch (an EventSource cannot send the token a private page needs); a broken connection is retried.
 */
export default function CandleMomentLive({
  memorial,
  moment,
  onEnded,
}: {
  memorial: Memorial;
  moment: CandleMoment;
  onEnded: () => void;
}) {
  const client = useApiClient();
  const [live, setLive] = useState<Live>({ status: 'connecting', together: null, candles: [] });
  const endedRef = useRef(onEnded);
  useEffect(() => {
    endedRef.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;

    const handle = (event: string, data: unknown) => {
      if (event === 'state') {
        const s = liveStateSchema.parse(data);
        setLive((l) => {
          const known = new Set(s.candles.map((c) => c.id));
          return {
            status: 'live',
            together: s.together,
            candles: [...l.candles.filter((c) => !known.has(c.id)), ...s.candles],
          };
        });
      } else if (event === 'candle') {
        const c = candleSchema.parse(data);
        setLive((l) => (l.candles.some((x) => x.id === c.id) ? l : { ...l, candles: [c, ...l.candles] }));
      } else if (event === 'together') {
        const { together } = liveTogetherSchema.parse(data);
        setLive((l) => ({ ...l, together }));
      } else if (event === 'ended') {
        setLive((l) => ({ ...l, status: 'ended' }));
        abort.abort();
        endedRef.current();
      }
    };

    const connect = async () => {
      try {
        const res = await client.stream(livePath(memorial.id), abort.signal);
        if (res.status === 404 || res.status === 403) {
          // No access (any more): the page was made private, or the code changed. Trying again won't help.
          setLive((l) => ({ ...l, status: 'ended' }));
          abort.abort();
          endedRef.current();
          return;
        }
        if (res.status === 409) {
          // Not on (cancelled, over, or this browser's clock runs ahead): the section reads again and
          // removes the panel if the moment is gone; else it is tried again below.
          endedRef.current();
          throw new Error('not live');
        }
        if (!res.ok || !res.body) throw new Error(String(res.status));
        await readEventStream(res.body, (event, data) => {
          if (data) handle(event, JSON.parse(data));
        });
      } catch {
        // Broken off, or the page closed (aborted).
      }
      if (abort.signal.aborted) return;
      setLive((l) => (l.status === 'ended' ? l : { ...l, status: 'lost' }));
      retry = setTimeout(() => void connect(), RETRY_MS);
    };
    void connect();
    return () => {
      abort.abort();
      clearTimeout(retry);
    };
  }, [client, memorial.id]);

  return (
    <div className="mt-6 rounded-3xl border border-border bg-card p-6 shadow-soft sm:p-8">
      <div className="grid items-center gap-6 sm:grid-cols-[6rem_minmax(0,1fr)]">
        <CandleArt className="mx-auto h-32 w-20 text-foreground" />
        <div>
          <h3 className="font-serif text-2xl">
            {live.status === 'ended' ? 'Het kaarsjesmoment is voorbij' : 'Nu: het kaarsjesmoment'}
            {moment.title ? ` · ${moment.title}` : ''}
          </h3>
          <p className="text-sm text-muted">{momentHours(moment)} uur</p>
          <p className="mt-3 text-lg" role="status" aria-live="polite" data-testid="together">
            {live.status === 'ended'
              ? 'Dank je wel dat je er was.'
              : live.together === null
                ? 'Even verbinden…'
                : togetherText(live.together)}
          </p>
          {live.status === 'lost' && (
            <p className="mt-1 text-sm text-muted">De verbinding is even weg; we proberen het opnieuw.</p>
          )}
          {live.status !== 'ended' && (
            <a
              href="#kaarsjes"
              className="mt-4 inline-flex font-medium text-primary underline underline-offset-4"
            >
              Steek ook een kaarsje aan voor {memorial.firstName}
            </a>
          )}
        </div>
      </div>
      <h4 className="mt-6 font-semibold">Aangestoken tijdens dit moment</h4>
      {live.candles.length === 0 ? (
        <p className="mt-2 text-sm text-muted">Nog geen kaarsjes in dit uur.</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2" aria-label="Kaarsjes van dit moment" aria-live="polite">
          {live.candles.map((c) => (
            <li key={c.id} className="candle-new rounded-2xl bg-background-soft px-4 py-3">
              <p className="font-medium">
                {c.name} {c.kind === 'flower' ? 'legde een bloem neer' : 'stak een kaarsje aan'}
              </p>
              {c.message && <p className="mt-1 text-sm whitespace-pre-line">{c.message}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
