import { useEffect, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { Mail, PenLine } from 'lucide-react';
import {
  apiPaths,
  MEMORY_TEXT_MAX,
  mediaImageTypes,
  VISITOR_MEMORY_LINK_DAYS,
  visitorMemoryCreateSchema,
  visitorMemoryResultSchema,
  type Memorial,
} from '@aandenken/contract';
import { Form, FormError, TextareaField, TextField } from '../../../components/form/form.tsx';
import { pickFiles, type PickedFile } from '../../../components/memorial/file-checks.ts';
import { FileDropZone, UploadList } from '../../../components/memorial/upload-list.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useConfirmDiscard } from '../../../components/ui/discard-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { clearDraft, draftKey, FormDraft } from '../../../lib/drafts.tsx';

type Values = { name: string; email: string; yearLabel: string; text: string };

const photosOnly = 'Dit bestandstype kunnen we niet gebruiken. Kies een foto (JPEG, PNG, WebP, AVIF of GIF).';
/** A visitor adds a photo only: anything else gets its own words (HEIC keeps the members' advice). */
const isPhotoOrHeic = (f: File) =>
  (mediaImageTypes as readonly string[]).includes(f.type.toLowerCase()) ||
  /^image\/hei[cf]$/i.test(f.type) ||
  /\.hei[cf]$/i.test(f.name);

/**
 * A visitor of a public page, without an account, leaves a memory for the family (when they turned it on,
 * docs/decisions/025-visitor-memories.md): a calm invitation after the candles, and a dialog with name,
 * e-mail address, year, text and one photo if they like. The memory waits until the address is confirmed by the mailed link, then
 * for the family's approval; the dialog says both.
 */
export function VisitorMemorySection({ memorial }: { memorial: Memorial }) {
  const [open, setOpen] = useState(false);
  return (
    <section
      aria-labelledby="visitor-memory-title"
      className="mx-auto mt-10 max-w-3xl px-4 sm:px-6"
      data-testid="visitor-memory"
    >
      <div className="flex flex-col items-start gap-4 rounded-3xl border border-border bg-card p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div>
          <h2 id="visitor-memory-title" className="font-serif text-2xl">
            Deel een herinnering
          </h2>
          <p className="mt-2 max-w-xl text-muted">
            Heb je een herinnering aan {memorial.firstName}? Schrijf haar op voor de familie. Zij lezen haar
            eerst; daarna staat ze op de pagina, met je naam erbij.
          </p>
        </div>
        <Button variant="secondary" size="lg" onClick={() => setOpen(true)} className="shrink-0">
          <PenLine aria-hidden className="h-4 w-4" />
          Deel een herinnering
        </Button>
      </div>
      <VisitorMemoryDialog open={open} onOpenChange={setOpen} memorial={memorial} />
    </section>
  );
}

function VisitorMemoryDialog({
  open,
  onOpenChange,
  memorial,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  memorial: Memorial;
}) {
  const client = useApiClient();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [photo, setPhoto] = useState<PickedFile | null>(null);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  // The preview's object URL goes when the photo is taken out, or the dialog goes.
  const preview = photo?.preview;
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const dropPhoto = () => {
    setPhoto(null);
    setPhotoProblem(null);
  };
  // Choosing or taking out the photo swaps the control that had focus: focus goes to the one that replaces it.
  const photoGroup = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    photoGroup.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [photo?.key]);
  // What is typed is kept in this browser until it is sent (lib/drafts.tsx), apart from a member's draft.
  const storageKey = `${draftKey(memorial.id, 'memory')}:bezoeker`;

  const close = () => {
    setSentTo(null);
    setDirty(false);
    dropPhoto();
    onOpenChange(false);
  };
  const guard = useConfirmDiscard(!sentTo && (dirty || photo !== null), {
    onKeep: close,
    onDiscard: () => {
      clearDraft(storageKey);
      close();
    },
    description:
      'Je herinnering is nog niet verstuurd. Je kunt wat je schreef voor later bewaren in deze browser, of het weggooien.',
  });

  const submit = async (values: Values) => {
    if (photo) {
      // One request: the text fields first (checked before the photo is read), then the photo.
      const body = new FormData();
      for (const [name, value] of Object.entries(values)) body.append(name, value);
      body.append('media', photo.file, photo.file.name);
      setPhotoProblem(null);
      setPhoto({ ...photo, status: 'uploading', progress: 0 });
      try {
        await client.upload(apiPaths.visitorMemory(memorial.id), body, {
          schema: visitorMemoryResultSchema,
          onProgress: (p) => setPhoto((f) => f && { ...f, progress: p.fraction }),
        });
      } catch (err) {
        setPhoto((f) => f && { ...f, status: 'waiting', progress: 0 });
        // The photo was refused (not a photo, too large): said at the photo; nothing was sent.
        if (err instanceof ApiError && err.fields?.media) return setPhotoProblem(err.message);
        throw err;
      }
    } else {
      await client.post(apiPaths.visitorMemory(memorial.id), values, { schema: visitorMemoryResultSchema });
    }
    clearDraft(storageKey);
    setDirty(false);
    setSentTo(values.email.trim());
  };

  const defaults: Values = { name: '', email: '', yearLabel: '', text: '' };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? onOpenChange(true) : guard.requestClose())}
      title={sentTo ? 'Kijk in je mail' : 'Deel een herinnering'}
      description={
        sentTo
          ? undefined
          : `Een moment of een verhaal over ${memorial.firstName}, voor de familie. Je hebt geen account nodig.`
      }
      size="lg"
    >
      {sentTo ? (
        <div role="status" className="flex flex-col items-center py-4 text-center">
          <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            <Mail aria-hidden className="h-7 w-7" />
          </span>
          <p className="mt-5 font-serif text-xl">Bevestig je e-mailadres</p>
          <p className="mt-2 max-w-md text-muted">
            We hebben een mail gestuurd naar {sentTo}. Open de link daarin (hij werkt{' '}
            {VISITOR_MEMORY_LINK_DAYS} dagen); daarna leest de familie je herinnering. Zodra zij die
            goedkeurt, staat ze op de pagina.
          </p>
          <Button className="mt-7" onClick={close}>
            Terug naar de pagina
          </Button>
        </div>
      ) : (
        <Form
          schema={visitorMemoryCreateSchema}
          defaultValues={defaults}
          aria-label="Herinnering voor de familie"
          className="flex flex-col gap-5"
          onSubmit={submit}
        >
          {(form) => (
            <>
              <FormDraft storageKey={storageKey} onDirtyChange={setDirty}>
                {(draft) =>
                  draft.restored && (
                    <p className="rounded-xl bg-secondary px-4 py-3 text-sm">
                      Wat je eerder schreef, staat er nog. Je kunt verdergaan waar je gebleven was.
                    </p>
                  )
                }
              </FormDraft>
              <TextField
                name="name"
                label="Je naam"
                required
                autoComplete="name"
                maxLength={80}
                hint="Deze naam staat bij je herinnering."
              />
              <TextField
                name="email"
                label="Je e-mailadres"
                type="email"
                inputMode="email"
                required
                autoComplete="email"
                maxLength={254}
                hint="Alleen om je herinnering te bevestigen. We tonen het nergens en delen het met niemand."
              />
              <TextField
                name="yearLabel"
                label="Jaar of periode"
                required
                maxLength={40}
                placeholder="Bijvoorbeeld 1987 of Zomer 1990"
              />
              <VisitorTextField />
              <div
                ref={photoGroup}
                className="flex flex-col gap-3"
                role="group"
                aria-labelledby="visitor-photo-title"
              >
                <p id="visitor-photo-title" className="text-sm font-medium">
                  Foto (niet verplicht)
                </p>
                {photo ? (
                  <UploadList
                    files={[photo]}
                    disabled={form.formState.isSubmitting}
                    onRemove={() => {
                      refocus.current = true;
                      dropPhoto();
                    }}
                  />
                ) : (
                  <FileDropZone
                    label="Foto toevoegen"
                    hint="Eén foto (JPEG, PNG, WebP, AVIF of GIF) tot 20 MB. Locatie en andere gegevens halen we eruit; de familie ziet de foto eerst."
                    videos={false}
                    disabled={form.formState.isSubmitting}
                    onFiles={(list) => {
                      // One photo: of several dropped at once, the first.
                      const files = Array.from(list).slice(0, 1);
                      const notPhoto = files.find((f) => !isPhotoOrHeic(f));
                      if (notPhoto) return setPhotoProblem(`${notPhoto.name}: ${photosOnly}`);
                      const { picked, problems } = pickFiles(files, 0, 1, false);
                      refocus.current = picked.length > 0;
                      setPhoto(picked[0] ?? null);
                      setPhotoProblem(problems[0] ?? null);
                    }}
                  />
                )}
                {photoProblem && (
                  <p role="alert" className="text-sm text-danger" data-testid="visitor-photo-problem">
                    {photoProblem}
                  </p>
                )}
              </div>
              <FormError />
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="outline" disabled={form.formState.isSubmitting} onClick={guard.requestClose}>
                  Annuleren
                </Button>
                <Button type="submit" disabled={form.formState.isSubmitting}>
                  {form.formState.isSubmitting && <Spinner className="[&>span]:h-4 [&>span]:w-4" />}
                  {form.formState.isSubmitting ? 'Bezig met versturen…' : 'Herinnering versturen'}
                </Button>
              </div>
            </>
          )}
        </Form>
      )}
      {guard.dialog}
    </Dialog>
  );
}

function VisitorTextField() {
  const { watch } = useFormContext<Values>();
  const text = watch('text') ?? '';
  return (
    <TextareaField
      name="text"
      label="Je herinnering"
      required
      rows={6}
      maxLength={MEMORY_TEXT_MAX}
      hint={`${text.length} / ${MEMORY_TEXT_MAX} tekens`}
    />
  );
}

export default VisitorMemorySection;
