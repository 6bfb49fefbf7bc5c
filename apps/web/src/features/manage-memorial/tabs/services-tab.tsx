import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { CalendarPlus, Download, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import * as z from 'zod/mini';
import {
  serviceKindLabels,
  serviceKinds,
  type Memorial,
  type MemorialService,
  type ServiceInput,
} from '@aandenken/contract';
import { SelectField, TextareaField, TextField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../lib/toast.ts';
import { serviceDateNl, useServices } from '../../../lib/memorials/services.ts';
import { useDeleteService, useExportRsvps, useRsvps, useSaveService } from '../api/services.ts';
import { ScheduleForm } from '../components/schedule-form.tsx';
import { errorText, Section } from '../components/section.tsx';
import { GuestbookSection } from './guestbook-section.tsx';

const TZ = 'Europe/Amsterdam';
const wall = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const wallOf = (ms: number) => {
  const p = Object.fromEntries(wall.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}`, seconds: p.second };
};
const offset = (ms: number) => {
  const w = wallOf(ms);
  return Date.parse(`${w.date}T${w.time}:${w.seconds}Z`) - ms;
};
/** A date and time in Dutch time (whatever the browser's own zone) as an instant. */
function amsterdamToIso(date: string, time: string): string {
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  let at = asUtc - offset(asUtc);
  at = asUtc - offset(at);
  return new Date(at).toISOString();
}

/** The form holds text; the server's rules (the contract's) check what is sent and name the fields. */
const formSchema = z.object({
  kind: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  placeName: z.string(),
  address: z.string(),
  programme: z.string(),
  livestreamUrl: z.string(),
  afterText: z.string(),
  rsvpOpen: z.boolean(),
  rsvpCloseDate: z.string(),
  rsvpCloseTime: z.string(),
});
type FormValues = z.infer<typeof formSchema>;

const toForm = (s: MemorialService | null): FormValues => {
  const closes = s?.rsvpClosesAt ? wallOf(Date.parse(s.rsvpClosesAt)) : null;
  return {
    kind: s?.kind ?? 'uitvaart',
    date: s?.date ?? '',
    startTime: s?.startTime ?? '',
    endTime: s?.endTime ?? '',
    placeName: s?.placeName ?? '',
    address: s?.address ?? '',
    programme: s?.programme ?? '',
    livestreamUrl: s?.livestreamUrl ?? '',
    afterText: s?.afterText ?? '',
    rsvpOpen: s?.rsvpOpen ?? false,
    rsvpCloseDate: closes?.date ?? '',
    rsvpCloseTime: closes?.time ?? '',
  };
};

const toInput = (v: FormValues): ServiceInput => ({
  kind: v.kind as ServiceInput['kind'],
  date: v.date,
  startTime: v.startTime,
  endTime: v.endTime || null,
  placeName: v.placeName,
  address: v.address,
  programme: v.programme,
  livestreamUrl: v.livestreamUrl,
  afterText: v.afterText,
  rsvpOpen: v.rsvpOpen,
  rsvpClosesAt:
    v.rsvpOpen && v.rsvpCloseDate ? amsterdamToIso(v.rsvpCloseDate, v.rsvpCloseTime || '23:59') : null,
});

/**
 * 'Uitvaart': the services of the funeral day (docs/funeral-day.md) and who signed up for the gathering
 * after them. Owners and editors (the caring company's partner role is an editor) manage all of it, the
 * livestream link included. Its own chunk: loaded when the tab opens.
 */
export default function ServicesTab({ memorial }: { memorial: Memorial }) {
  const services = useServices(memorial.id);
  const [editing, setEditing] = useState<MemorialService | 'new' | null>(null);
  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Uitvaart en bijeenkomsten"
        description="Wanneer en waar het afscheid is, met het programma, een livestream en wat er na afloop is. Bezoekers zien het bovenaan de pagina tot de dag zelf; daarna staat het onder de herinneringen."
        actions={
          editing === null && (
            <Button onClick={() => setEditing('new')}>
              <CalendarPlus aria-hidden className="h-4 w-4" />
              Bijeenkomst toevoegen
            </Button>
          )
        }
      >
        {editing !== null && (
          <ServiceForm
            memorial={memorial}
            service={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
        <QueryState
          query={services}
          skeleton={<Skeleton className="h-24 rounded-2xl" />}
          error="De bijeenkomsten konden niet worden geladen."
        >
          {(data) =>
            data.services.length === 0 ? (
              editing === null && (
                <p className="text-muted">
                  Er staat nog geen bijeenkomst op de pagina. Voeg de uitvaart, het afscheid, de crematie of
                  een herdenking toe.
                </p>
              )
            ) : (
              <ul className="mt-2 flex flex-col gap-4" aria-label="Bijeenkomsten">
                {data.services.map((s) => (
                  <li key={s.id} className="rounded-2xl border border-border p-4 sm:p-5">
                    <ServiceRow memorial={memorial} service={s} onEdit={() => setEditing(s)} />
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </Section>
      <GuestbookSection memorial={memorial} />
    </div>
  );
}

function ServiceRow({
  memorial,
  service: s,
  onEdit,
}: {
  memorial: Memorial;
  service: MemorialService;
  onEdit: () => void;
}) {
  const remove = useDeleteService(memorial.id);
  const label = `${serviceKindLabels[s.kind]} ${serviceDateNl(s.date)}`;
  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-semibold">{serviceKindLabels[s.kind]}</h3>
          <p className="text-sm text-muted">
            {serviceDateNl(s.date)}, {s.startTime}
            {s.endTime ? `–${s.endTime}` : ''} uur · {s.placeName}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onEdit} aria-label={`${label} wijzigen`}>
            <Pencil aria-hidden className="h-4 w-4" />
            Wijzigen
          </Button>
          <ConfirmDialog
            trigger={
              <Button variant="ghost" size="sm" aria-label={`${label} verwijderen`}>
                <Trash2 aria-hidden className="h-4 w-4" />
                Verwijderen
              </Button>
            }
            title="Bijeenkomst verwijderen?"
            description="De bijeenkomst verdwijnt van de pagina, met alle aanmeldingen ervoor."
            confirmLabel="Verwijderen"
            destructive
            onConfirm={async () => {
              try {
                await remove.mutateAsync(s);
                toast.success('De bijeenkomst is verwijderd');
              } catch (e) {
                toast.error('De bijeenkomst kon niet worden verwijderd', errorText(e));
                throw e;
              }
            }}
          />
        </div>
      </div>
      {s.rsvpOpen && <RsvpList memorial={memorial} service={s} />}
    </div>
  );
}

function RsvpList({ memorial, service: s }: { memorial: Memorial; service: MemorialService }) {
  const rsvps = useRsvps(memorial.id, s.id);
  const exportCsv = useExportRsvps(memorial.id);
  const headingId = `rsvps-${s.id}`;
  return (
    <section aria-labelledby={headingId} className="mt-4 border-t border-border pt-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h4 id={headingId} className="font-semibold">
          Aanmeldingen voor na afloop
          {!s.rsvpAccepting && <span className="ml-2 text-sm font-normal text-muted">(gesloten)</span>}
        </h4>
        <div className="flex gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void rsvps.refetch()}
            disabled={rsvps.isFetching}
            aria-label="Aanmeldingen vernieuwen"
          >
            <RotateCcw aria-hidden className="h-4 w-4" />
            Vernieuwen
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              exportCsv.mutate(s, {
                onError: (e) => toast.error('De export kon niet worden gemaakt', errorText(e)),
              })
            }
            disabled={exportCsv.isPending}
          >
            <Download aria-hidden className="h-4 w-4" />
            Exporteren (CSV)
          </Button>
        </div>
      </div>
      <QueryState
        query={rsvps}
        skeleton={<Skeleton className="mt-3 h-12 rounded-xl" />}
        error="De aanmeldingen konden niet worden geladen."
      >
        {(data) =>
          data.count === 0 ? (
            <p className="mt-2 text-sm text-muted">Nog niemand heeft zich aangemeld.</p>
          ) : (
            <>
              <p className="mt-2 text-sm" aria-live="polite">
                {data.count} {data.count === 1 ? 'aanmelding' : 'aanmeldingen'}, samen{' '}
                <strong>
                  {data.totalPeople} {data.totalPeople === 1 ? 'persoon' : 'personen'}
                </strong>
                .
              </p>
              <div className="mt-3 overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Aanmeldingen</caption>
                  <thead>
                    <tr className="border-b border-border text-muted">
                      <th scope="col" className="py-2 pr-4 font-medium">
                        Naam
                      </th>
                      <th scope="col" className="py-2 pr-4 font-medium">
                        Personen
                      </th>
                      <th scope="col" className="py-2 font-medium">
                        Opmerking
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rsvps.map((r) => (
                      <tr key={r.id} className="border-b border-border last:border-0">
                        <td className="py-2 pr-4">{r.name}</td>
                        <td className="py-2 pr-4">{r.people}</td>
                        <td className="py-2 whitespace-pre-line">{r.note}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function RsvpCheckbox() {
  const { register } = useFormContext<FormValues>();
  return (
    <label className="flex items-start gap-3">
      <input type="checkbox" className="mt-1 h-5 w-5 accent-primary" {...register('rsvpOpen')} />
      <span>
        <span className="font-medium">Aanmelden voor na afloop</span>
        <span className="block text-sm text-muted">
          Bezoekers geven hun naam en met hoeveel personen ze komen, zonder account.
        </span>
      </span>
    </label>
  );
}

/** When sign-ups close: asked only while sign-ups are open. */
function RsvpCloseFields() {
  const open = useWatch<FormValues, 'rsvpOpen'>({ name: 'rsvpOpen' });
  if (!open) return null;
  return (
    <>
      <TextField
        name="rsvpCloseDate"
        label="Aanmelden sluit op (datum)"
        type="date"
        hint="Leeg: aanmelden sluit bij het begin."
      />
      <TextField name="rsvpCloseTime" label="Aanmelden sluit om (tijd)" type="time" />
    </>
  );
}

function ServiceForm({
  memorial,
  service,
  onDone,
}: {
  memorial: Memorial;
  service: MemorialService | null;
  onDone: () => void;
}) {
  const save = useSaveService(memorial.id);
  return (
    <ScheduleForm
      schema={formSchema}
      defaultValues={toForm(service)}
      label={service ? 'Bijeenkomst wijzigen' : 'Bijeenkomst toevoegen'}
      onSave={async (values) => {
        await save.mutateAsync({ id: service?.id ?? null, input: toInput(values) });
        toast.success(service ? 'De bijeenkomst is gewijzigd' : 'De bijeenkomst staat op de pagina');
      }}
      onDone={onDone}
      before={
        <SelectField
          name="kind"
          label="Soort"
          required
          placeholder="Kies de soort"
          options={serviceKinds.map((k) => ({ value: k, label: serviceKindLabels[k] }))}
        />
      }
    >
      <TextField name="endTime" label="Eindtijd (niet verplicht)" type="time" />
      <TextField name="placeName" label="Naam van de plaats" required placeholder="Bijv. Aula Zorgvlied" />
      <TextField name="address" label="Adres" required placeholder="Straat en huisnummer, plaats" />
      <TextareaField name="programme" label="Programma" rows={4} className="sm:col-span-2" />
      <TextField
        name="livestreamUrl"
        label="Livestreamlink (niet verplicht)"
        type="url"
        inputMode="url"
        hint="Bezoekers zien de link vanaf de dag zelf."
        className="sm:col-span-2"
      />
      <TextareaField
        name="afterText"
        label="Na afloop (koffietafel, condoleance)"
        rows={3}
        className="sm:col-span-2"
      />
      <div className="sm:col-span-2">
        <RsvpCheckbox />
      </div>
      <RsvpCloseFields />
    </ScheduleForm>
  );
}
