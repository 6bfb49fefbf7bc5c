import {
  auditActionLabels,
  memberRoleLabels,
  memorialStatusLabels,
  memorialVisibilityLabels,
  type AuditEntry,
  type Memorial,
} from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useAuditLog } from '../api/audit.ts';
import { Section } from '../components/section.tsx';

/** Labels for actions the contract does not name (memories, media, candles). */
const moreLabels: Record<string, string> = {
  'memory.published': 'Herinnering geplaatst',
  'memory.submitted': 'Herinnering ingediend ter goedkeuring',
  'memory.approved': 'Herinnering goedgekeurd',
  'memory.rejected': 'Herinnering afgewezen',
  'memory.edited': 'Herinnering gewijzigd',
  'memory.privacy_changed': 'Zichtbaarheid van herinnering gewijzigd',
  'memory.deleted': 'Herinnering verwijderd',
  'media.added': 'Foto of video toegevoegd',
  'media.removed': 'Foto of video verwijderd',
  'media.reordered': 'Volgorde van foto’s gewijzigd',
  'candle.removed': 'Kaarsje of bloem verwijderd',
  'service.created': 'Bijeenkomst toegevoegd',
  'service.updated': 'Bijeenkomst gewijzigd',
  'service.deleted': 'Bijeenkomst verwijderd',
  'guestbook.opened': 'Condoleanceregister geopend',
  'guestbook.closed': 'Condoleanceregister gesloten',
  'guestbook.entry_hidden': 'Inschrijving in het register verborgen',
  'guestbook.entry_shown': 'Inschrijving in het register weer getoond',
  'candle_moment.created': 'Kaarsjesmoment gepland',
  'candle_moment.updated': 'Kaarsjesmoment gewijzigd',
  'candle_moment.deleted': 'Kaarsjesmoment afgezegd',
  'future_message.created': 'Toekomstig bericht gepland',
  'future_message.updated': 'Toekomstig bericht gewijzigd',
  'future_message.cancelled': 'Toekomstig bericht geannuleerd',
  'subscription.removed': 'Aanmelding voor Blijf verbonden verwijderd',
};

export function actionLabel(action: string): string {
  return auditActionLabels[action] ?? moreLabels[action] ?? action;
}

const labelOf = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  return (
    (memberRoleLabels as Record<string, string>)[v] ??
    (memorialStatusLabels as Record<string, string>)[v] ??
    (memorialVisibilityLabels as Record<string, string>)[v] ??
    null
  );
};

/** A short Dutch line about what changed ('Besloten → Openbaar'), when the entry says so. */
export function detailLine(entry: Pick<AuditEntry, 'details'>): string | null {
  const d = entry.details;
  const from = labelOf(d.from);
  const to = labelOf(d.to);
  const parts: string[] = [];
  if (typeof d.name === 'string') parts.push(d.name);
  if (from && to) parts.push(`${from} → ${to}`);
  if (typeof d.email === 'string') parts.push(d.email);
  if (d.changes && typeof d.changes === 'object') {
    const names: Record<string, string> = {
      first_name: 'voornaam',
      last_name: 'achternaam',
      birth_date: 'geboortedatum',
      death_date: 'overlijdensdatum',
      birth_place: 'geboorteplaats',
      death_place: 'overlijdensplaats',
      quote: 'citaat',
      cover_media_id: 'omslagfoto',
    };
    const changed = Object.keys(d.changes).map((k) => names[k] ?? k);
    if (changed.length) parts.push(changed.join(', '));
  }
  return parts.length ? parts.join(' · ') : null;
}

const time = new Intl.DateTimeFormat('nl-NL', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Amsterdam',
});

/** The audit log (owners): who changed what, when. */
export function AuditTab({ memorial }: { memorial: Memorial }) {
  const log = useAuditLog(memorial.id);
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Section
      title="Logboek"
      description="Wie wat wanneer veranderde op deze pagina, de nieuwste eerst. Alleen eigenaren zien het logboek."
    >
      <QueryState
        query={log}
        skeleton={<Skeleton className="h-40 rounded-2xl" />}
        error="Het logboek kon niet worden geladen."
      >
        {() =>
          entries.length === 0 ? (
            <p className="text-sm text-muted">Nog niets in het logboek.</p>
          ) : (
            <ol className="relative flex flex-col gap-5 border-l border-border pl-6" aria-label="Logboek">
              {entries.map((e) => {
                const detail = detailLine(e);
                return (
                  <li key={e.id} className="relative">
                    <span
                      aria-hidden
                      className="absolute top-1.5 -left-[1.72rem] h-2.5 w-2.5 rounded-full bg-accent"
                    />
                    <p className="font-medium">{actionLabel(e.action)}</p>
                    {detail && <p className="text-sm text-muted">{detail}</p>}
                    <p className="mt-0.5 text-xs text-muted">
                      {e.actor.name ??
                        (e.actor.kind === 'guest'
                          ? 'Een gast'
                          : e.actor.kind === 'system'
                            ? 'Aandenken'
                            : 'Iemand')}{' '}
                      ·{' '}
                      <time dateTime={e.createdAt}>
                        {formatDate(e.createdAt)} om {time.format(new Date(e.createdAt))}
                      </time>
                    </p>
                  </li>
                );
              })}
            </ol>
          )
        }
      </QueryState>
      {log.hasNextPage && (
        <Button
          variant="outline"
          className="mt-6"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Meer laden
        </Button>
      )}
    </Section>
  );
}
