import * as z from 'zod/mini';
import { Archive, Check, RotateCcw, Send } from 'lucide-react';
import { MEMORIAL_QUOTE_MAX, memorialUpdateSchema, type Memorial } from '@aandenken/contract';
import { Form, FormError, TextareaField, TextField, SubmitButton } from '../../../components/form/form.tsx';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DraftNotice } from '../../../components/ui/discard-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { cn } from '../../../lib/cn.ts';
import { draftKey, FormDraft } from '../../../lib/drafts.tsx';
import { useGallery } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { errorText, Section } from '../components/section.tsx';
import { useUpdateMemorial } from '../api/details.ts';

// zod/mini has no .unwrap(): the optional's inner schema is its def.innerType.
const shape = memorialUpdateSchema.shape;
/** An empty date field means 'unknown'. */
const emptyToNull = (v: unknown) => (v === '' ? null : v);

export const detailsFormSchema = z
  .object({
    firstName: shape.firstName.def.innerType,
    lastName: shape.lastName.def.innerType,
    birthDate: z.pipe(z.transform(emptyToNull), shape.birthDate.def.innerType),
    deathDate: z.pipe(z.transform(emptyToNull), shape.deathDate.def.innerType),
    birthPlace: shape.birthPlace.def.innerType,
    deathPlace: shape.deathPlace.def.innerType,
    quote: shape.quote.def.innerType,
  })
  .check(
    z.refine((v) => !(v.birthDate && v.deathDate && v.birthDate > v.deathDate), {
      message: 'Overlijdensdatum ligt voor de geboortedatum',
      path: ['deathDate'],
    }),
  );

export function DetailsTab({ memorial }: { memorial: Memorial }) {
  const update = useUpdateMemorial(memorial.id);
  const today = new Date().toISOString().slice(0, 10);

  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Gegevens"
        description="Naam, data en plaatsen staan bovenaan de pagina. Het citaat verschijnt onder de naam."
      >
        <Form
          schema={detailsFormSchema}
          defaultValues={{
            firstName: memorial.firstName,
            lastName: memorial.lastName,
            birthDate: memorial.birthDate ?? '',
            deathDate: memorial.deathDate ?? '',
            birthPlace: memorial.birthPlace ?? '',
            deathPlace: memorial.deathPlace ?? '',
            quote: memorial.quote ?? '',
          }}
          aria-label="Gegevens van de overledene"
          className="grid gap-5 sm:grid-cols-2"
          onSubmit={async (values) => {
            await update.mutateAsync(values);
            toast.success('De gegevens zijn opgeslagen');
          }}
        >
          {() => (
            <>
              {/* Kept in this browser until saved: another tab or a reload loses nothing (lib/drafts.tsx). */}
              <FormDraft storageKey={draftKey(memorial.id, 'details')}>
                {(draft) =>
                  draft.restored && <DraftNotice className="sm:col-span-2" onDiscard={draft.discard} />
                }
              </FormDraft>
              <TextField name="firstName" label="Voornaam" required autoComplete="off" />
              <TextField name="lastName" label="Achternaam" required autoComplete="off" />
              <TextField name="birthDate" label="Geboortedatum" type="date" max={today} min="1800-01-01" />
              <TextField name="deathDate" label="Overlijdensdatum" type="date" max={today} min="1800-01-01" />
              <TextField name="birthPlace" label="Geboorteplaats" autoComplete="off" />
              <TextField name="deathPlace" label="Overlijdensplaats" autoComplete="off" />
              <TextareaField
                name="quote"
                label="Citaat"
                rows={2}
                maxLength={MEMORIAL_QUOTE_MAX}
                hint={`Een zin die bij ${memorial.firstName} past; maximaal ${MEMORIAL_QUOTE_MAX} tekens.`}
                className="sm:col-span-2"
              />
              <FormError className="sm:col-span-2" />
              <div className="sm:col-span-2">
                <SubmitButton icon={<Check aria-hidden className="h-4 w-4" />}>Gegevens opslaan</SubmitButton>
              </div>
            </>
          )}
        </Form>
      </Section>

      <CoverPicker memorial={memorial} />
      <StatusSection memorial={memorial} />
    </div>
  );
}

function CoverPicker({ memorial }: { memorial: Memorial }) {
  const gallery = useGallery(memorial.id);
  const update = useUpdateMemorial(memorial.id);
  const photos = (gallery.data?.items ?? []).filter((i) => i.kind === 'image');

  const choose = (coverMediaId: string | null) =>
    update.mutate(
      { coverMediaId },
      {
        onSuccess: () =>
          toast.success(coverMediaId ? 'De omslagfoto is gekozen' : 'De omslagfoto is weggehaald'),
        onError: (e) => toast.error('De omslagfoto kon niet worden gewijzigd', errorText(e)),
      },
    );

  return (
    <Section
      title="Omslagfoto"
      description="De foto bovenaan de pagina, naast de naam. Kies een foto uit de galerij; zonder keuze wordt de eerste foto gebruikt."
    >
      <QueryState
        query={gallery}
        skeleton={
          <div className="grid grid-cols-3 gap-3 sm:grid-cols-5">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="aspect-[4/5]" />
            ))}
          </div>
        }
        error="De foto’s konden niet worden geladen."
      >
        {() =>
          photos.length === 0 ? (
            <p className="text-sm text-muted">
              Er staan nog geen foto’s in de galerij. Voeg ze toe bij ‘Foto’s en video’s’.
            </p>
          ) : (
            <fieldset>
              <legend className="sr-only">Kies de omslagfoto</legend>
              <div className="grid grid-cols-3 gap-3 sm:grid-cols-5 lg:grid-cols-6">
                {photos.map((p, i) => {
                  const selected = memorial.coverMediaId === p.id;
                  return (
                    <label
                      key={p.id}
                      className={cn(
                        'relative cursor-pointer overflow-hidden rounded-2xl ring-offset-2 ring-offset-card transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                        selected ? 'ring-3 ring-primary' : 'ring-1 ring-border hover:ring-muted',
                      )}
                    >
                      <input
                        type="radio"
                        name="cover"
                        className="sr-only"
                        checked={selected}
                        disabled={update.isPending}
                        onChange={() => choose(p.id)}
                        aria-label={`Foto ${i + 1}${p.caption ? `: ${p.caption}` : ''}`}
                      />
                      <MediaImage item={p} alt="" sizes="160px" className="aspect-[4/5]" />
                      {selected && (
                        <span className="absolute top-2 right-2 flex h-7 w-7 items-center justify-center rounded-full bg-primary text-primary-foreground">
                          <Check aria-hidden className="h-4 w-4" />
                        </span>
                      )}
                    </label>
                  );
                })}
              </div>
              {memorial.coverMediaId && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-4"
                  disabled={update.isPending}
                  onClick={() => choose(null)}
                >
                  Geen omslagfoto kiezen
                </Button>
              )}
            </fieldset>
          )
        }
      </QueryState>
    </Section>
  );
}

function StatusSection({ memorial }: { memorial: Memorial }) {
  const update = useUpdateMemorial(memorial.id);
  const change = (status: 'active' | 'archived', success: string) => async () => {
    try {
      await update.mutateAsync({ status });
      toast.success(success);
    } catch (e) {
      toast.error('De status kon niet worden gewijzigd', errorText(e));
      throw e;
    }
  };

  return (
    <Section
      title="Status"
      description={
        memorial.status === 'concept'
          ? 'De pagina is een concept: alleen beheerders zien hem. Publiceer hem wanneer je er klaar voor bent.'
          : memorial.status === 'active'
            ? 'De pagina is gepubliceerd. Archiveer hem als er niets meer bij hoeft te komen: alleen de leden kunnen hem dan nog lezen, en er kunnen geen herinneringen, kaarsjes of bloemen meer bij.'
            : 'De pagina is gearchiveerd: alleen de leden kunnen hem nog lezen, en niemand kan er nog iets aan toevoegen, ook geen kaarsje of bloem.'
      }
    >
      {memorial.status === 'concept' && (
        <ConfirmDialog
          trigger={
            <Button>
              <Send aria-hidden className="h-4 w-4" />
              Publiceren
            </Button>
          }
          title="Pagina publiceren?"
          description={
            memorial.visibility === 'private'
              ? 'De pagina wordt zichtbaar voor leden en voor iedereen met de toegangscode. Hij blijft besloten.'
              : 'De pagina wordt zichtbaar voor iedereen met de link.'
          }
          confirmLabel="Publiceren"
          onConfirm={change('active', 'De pagina is gepubliceerd')}
        />
      )}
      {memorial.status === 'active' && (
        <ConfirmDialog
          trigger={
            <Button variant="outline">
              <Archive aria-hidden className="h-4 w-4" />
              Archiveren
            </Button>
          }
          title="Pagina archiveren?"
          description="Alleen de leden kunnen de pagina dan nog lezen; bezoekers en gasten met de toegangscode niet meer. Niemand kan nog herinneringen, foto’s, kaarsjes, bloemen of uitnodigingen toevoegen. Je kunt de pagina later weer actief maken."
          confirmLabel="Archiveren"
          onConfirm={change('archived', 'De pagina is gearchiveerd')}
        />
      )}
      {memorial.status === 'archived' && (
        <Button
          variant="outline"
          disabled={update.isPending}
          onClick={() => void change('active', 'De pagina is weer actief')().catch(() => {})}
        >
          <RotateCcw aria-hidden className="h-4 w-4" />
          Weer actief maken
        </Button>
      )}
    </Section>
  );
}
