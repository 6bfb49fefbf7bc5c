import { useState } from 'react';
import { Flame, Pencil, Trash2 } from 'lucide-react';
import * as z from 'zod/mini';
import {
  CANDLE_MOMENT_DEFAULT_MINUTES,
  remembranceDayLabels,
  type CandleMoment,
  type CandleMomentInput,
  type Memorial,
} from '@aandenken/contract';
import { SelectField, TextField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../lib/toast.ts';
import { serviceDateNl } from '../../../lib/memorials/services.ts';
import { momentHours, useRemembrance } from '../../../lib/memorials/remembrance.ts';
import { useCancelCandleMoment, useSaveCandleMoment } from '../api/candle-moments.ts';
import { ScheduleForm } from '../components/schedule-form.tsx';
import { errorText, Section } from '../components/section.tsx';

const durations = [
  { value: '30', label: 'Een half uur' },
  { value: '60', label: 'Een uur' },
  { value: '90', label: 'Anderhalf uur' },
  { value: '120', label: 'Twee uur' },
];

/** The form holds text; the server's rules (the contract's) check what is sent and name the fields. */
const formSchema = z.object({
  date: z.string(),
  startTime: z.string(),
  durationMinutes: z.string(),
  title: z.string(),
});
type FormValues = z.infer<typeof formSchema>;

const toForm = (m: CandleMoment | null): FormValues => ({
  date: m?.date ?? '',
  startTime: m?.startTime ?? '20:00',
  durationMinutes: String(m?.durationMinutes ?? CANDLE_MOMENT_DEFAULT_MINUTES),
  title: m?.title ?? '',
});
const toInput = (v: FormValues): CandleMomentInput => ({
  date: v.date,
  startTime: v.startTime,
  durationMinutes: Number(v.durationMinutes),
  title: v.title,
});

/**
 * 'Herdenken': the kaarsjesmomenten the family plans (docs/funeral-day.md, 'Samen herdenken'), and the
 * remembrance days visitors see. Owners and editors. Its own chunk: loaded when the tab opens.
 */
export default function RemembranceTab({ memorial }: { memorial: Memorial }) {
  const remembrance = useRemembrance(memorial.id);
  const [editing, setEditing] = useState<CandleMoment | 'new' | null>(null);
  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Kaarsjesmomenten"
        description="Kies een moment waarop iedereen samen een kaarsje aansteekt, bijvoorbeeld op een verjaardag of sterfdag. Wie de pagina dan open heeft, ziet de kaarsjes live verschijnen en hoeveel mensen er samen zijn."
        actions={
          editing === null && (
            <Button onClick={() => setEditing('new')}>
              <Flame aria-hidden className="h-4 w-4" />
              Kaarsjesmoment plannen
            </Button>
          )
        }
      >
        {editing !== null && (
          <MomentForm
            memorial={memorial}
            moment={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
        <QueryState
          query={remembrance}
          skeleton={<Skeleton className="h-24 rounded-2xl" />}
          error="De kaarsjesmomenten konden niet worden geladen."
        >
          {(data) =>
            data.moments.length === 0 ? (
              editing === null && <p className="text-muted">Er is nog geen kaarsjesmoment gepland.</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-4" aria-label="Geplande kaarsjesmomenten">
                {data.moments.map((m) => (
                  <li key={m.id} className="rounded-2xl border border-border p-4 sm:p-5">
                    <MomentRow memorial={memorial} moment={m} onEdit={() => setEditing(m)} />
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </Section>
      <Section
        title="Herdenkingsdagen"
        description="Deze dagen staan vanzelf op de pagina. Wereldlichtjesdag alleen als de geboorte- en overlijdensdatum laten zien dat het om een kind gaat (jonger dan 18)."
      >
        <QueryState
          query={remembrance}
          skeleton={<Skeleton className="h-16 rounded-2xl" />}
          error="De herdenkingsdagen konden niet worden geladen."
        >
          {(data) => (
            <ul className="grid gap-2 sm:grid-cols-2" aria-label="Herdenkingsdagen op de pagina">
              {data.days.map((d) => (
                <li key={d.kind} className="rounded-xl bg-background-soft px-4 py-3">
                  <span className="font-medium">{remembranceDayLabels[d.kind]}</span>{' '}
                  <span className="text-muted">
                    {serviceDateNl(d.date)}
                    {d.time ? `, ${d.time} uur` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </Section>
    </div>
  );
}

function MomentRow({
  memorial,
  moment: m,
  onEdit,
}: {
  memorial: Memorial;
  moment: CandleMoment;
  onEdit: () => void;
}) {
  const cancel = useCancelCandleMoment(memorial.id);
  const label = `Kaarsjesmoment ${serviceDateNl(m.date)}`;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div>
        <h3 className="text-lg font-semibold">{m.title ?? 'Kaarsjesmoment'}</h3>
        <p className="text-sm text-muted">
          {serviceDateNl(m.date)}, {momentHours(m)} uur
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`${label} wijzigen`}>
          <Pencil aria-hidden className="h-4 w-4" />
          Wijzigen
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" aria-label={`${label} afzeggen`}>
              <Trash2 aria-hidden className="h-4 w-4" />
              Afzeggen
            </Button>
          }
          title="Kaarsjesmoment afzeggen?"
          description="Het moment verdwijnt van de pagina. Is het al bezig, dan stopt het live meekijken."
          confirmLabel="Afzeggen"
          destructive
          onConfirm={async () => {
            try {
              await cancel.mutateAsync(m);
              toast.success('Het kaarsjesmoment is afgezegd');
            } catch (e) {
              toast.error('Het kaarsjesmoment kon niet worden afgezegd', errorText(e));
              throw e;
            }
          }}
        />
      </div>
    </div>
  );
}

function MomentForm({
  memorial,
  moment,
  onDone,
}: {
  memorial: Memorial;
  moment: CandleMoment | null;
  onDone: () => void;
}) {
  const save = useSaveCandleMoment(memorial.id);
  return (
    <ScheduleForm
      schema={formSchema}
      defaultValues={toForm(moment)}
      label={moment ? 'Kaarsjesmoment wijzigen' : 'Kaarsjesmoment plannen'}
      startTimeHint="Nederlandse tijd."
      onSave={async (values) => {
        await save.mutateAsync({ id: moment?.id ?? null, input: toInput(values) });
        toast.success(moment ? 'Het kaarsjesmoment is gewijzigd' : 'Het kaarsjesmoment staat op de pagina');
      }}
      onDone={onDone}
    >
      <SelectField
        name="durationMinutes"
        label="Hoe lang"
        required
        placeholder="Kies hoe lang"
        options={durations}
      />
      <TextField name="title" label="Aanleiding (niet verplicht)" placeholder="Bijv. Op zijn verjaardag" />
    </ScheduleForm>
  );
}
