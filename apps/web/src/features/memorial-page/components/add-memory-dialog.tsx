import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { CheckCircle2, Clock } from 'lucide-react';
import * as z from 'zod/mini';
import {
  apiPaths,
  MEDIA_PER_MEMORY_MAX,
  MEMORY_TEXT_MAX,
  memoryCreateSchema,
  type Memorial,
  type Memory,
  videoAndMusicOffMessage,
} from '@aandenken/contract';
import { pickFiles } from '../../../components/memorial/file-checks.ts';
import { FileDropZone, UploadList } from '../../../components/memorial/upload-list.tsx';
import { useUploadQueue } from '../../../components/memorial/use-upload-queue.ts';
import { useVideoAndMusic } from '../../../components/plans/api.ts';
import { Form, FormError, TextareaField, TextField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useConfirmDiscard } from '../../../components/ui/discard-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { clearDraft, draftKey, FormDraft } from '../../../lib/drafts.tsx';
import {
  createMemoryConcept,
  publishMemory,
  updateMemoryConcept,
  uploadMemoryPhoto,
  useRefreshAfterMemory,
} from '../api/add-memory.ts';
import type { Viewer } from '../viewer.ts';

const memberSchema = z.pick(memoryCreateSchema, { yearLabel: true, text: true, membersOnly: true });
// zod/mini has no .unwrap(): the optional's inner schema is its def.innerType.
const guestSchema = z.extend(memberSchema, { authorName: memoryCreateSchema.shape.authorName.def.innerType });
type Values = { yearLabel: string; text: string; membersOnly?: boolean; authorName?: string };

/**
 * 'Deel een herinnering': a year or period, the text, photos with upload progress, and (for a guest) a name.
 * A memory from a guest waits for the family's approval; the dialog says so.
 */
export function AddMemoryDialog({
  open,
  onOpenChange,
  memorial,
  viewer,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  memorial: Memorial;
  viewer: Viewer;
}) {
  const client = useApiClient();
  const refresh = useRefreshAfterMemory(memorial.id);
  const queue = useUploadQueue();
  const [problems, setProblems] = useState<string[]>([]);
  const [conceptId, setConceptId] = useState<string | null>(null);
  const [done, setDone] = useState<Memory | null>(null);
  const schema = viewer.isGuestVisit ? guestSchema : memberSchema;
  const videos = useVideoAndMusic(memorial.id, open);
  // What is typed is kept in this browser until it is shared (lib/drafts.tsx).
  const storageKey = draftKey(memorial.id, 'memory');
  const [dirty, setDirty] = useState(false);

  const reset = () => {
    queue.clear();
    setProblems([]);
    setConceptId(null);
    setDone(null);
    setDirty(false);
  };

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    // A concept that was never published is of no use to anyone: take it away again.
    if (conceptId && !done) void client.delete(apiPaths.memory(conceptId)).catch(() => {});
    reset();
    onOpenChange(false);
  };

  const guard = useConfirmDiscard(!done && (dirty || queue.files.length > 0), {
    onKeep: () => close(false),
    onDiscard: () => {
      clearDraft(storageKey);
      close(false);
    },
    description:
      'Je herinnering is nog niet gedeeld. Je kunt wat je schreef voor later bewaren in deze browser, of het weggooien.',
  });

  const submit = async (values: Values) => {
    let id = conceptId;
    if (!id) {
      const concept = await createMemoryConcept(client, {
        memorialId: memorial.id,
        yearLabel: values.yearLabel,
        text: values.text,
        membersOnly: values.membersOnly ?? false,
        ...(viewer.isGuestVisit ? { authorName: values.authorName } : {}),
      });
      id = concept.id;
      setConceptId(id);
    } else {
      await updateMemoryConcept(client, id, { yearLabel: values.yearLabel, text: values.text });
    }

    const memoryId = id;
    const { failed } = await queue.run((file, onProgress) =>
      uploadMemoryPhoto(client, memoryId, file, onProgress),
    );
    if (failed > 0) {
      throw new ApiError(
        0,
        'UPLOAD_FAILED',
        failed === 1
          ? 'Eén bestand kon niet worden geüpload. Haal het weg of probeer het opnieuw.'
          : `${failed} bestanden konden niet worden geüpload. Haal ze weg of probeer het opnieuw.`,
      );
    }

    const published = await publishMemory(client, id);
    clearDraft(storageKey);
    setDirty(false);
    await refresh();
    if (published.status === 'pending') {
      setDone(published);
    } else {
      toast.success('Je herinnering staat op de pagina', 'Dank je wel voor het delen.');
      reset();
      onOpenChange(false);
      document.getElementById('herinneringen')?.scrollIntoView({ block: 'start' });
    }
  };

  const busy = queue.busy;
  const defaults: Values = { yearLabel: '', text: '', membersOnly: false, authorName: viewer.defaultName };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && (o ? close(true) : guard.requestClose())}
      title={done ? 'Dank je wel' : 'Deel een herinnering'}
      description={done ? undefined : `Een moment, een verhaal of een foto van ${memorial.firstName}.`}
      size="lg"
    >
      {done ? (
        <div role="status" className="flex flex-col items-center py-4 text-center">
          <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            <Clock aria-hidden className="h-7 w-7" />
          </span>
          <p className="mt-5 font-serif text-xl">Je herinnering wacht op goedkeuring</p>
          <p className="mt-2 max-w-md text-muted">
            De familie bekijkt herinneringen van gasten voordat ze op de pagina verschijnen. Zodra je
            herinnering is goedgekeurd, staat ze op de muur.
          </p>
          <Button className="mt-7" onClick={() => close(false)}>
            <CheckCircle2 aria-hidden className="h-4 w-4" />
            Terug naar de pagina
          </Button>
        </div>
      ) : (
        <Form
          schema={schema}
          defaultValues={defaults}
          aria-label="Herinnering delen"
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
              {viewer.isGuestVisit && (
                <TextField
                  name="authorName"
                  label="Je naam"
                  required
                  autoComplete="name"
                  maxLength={80}
                  hint="Deze naam staat bij je herinnering."
                />
              )}
              <TextField
                name="yearLabel"
                label="Jaar of periode"
                required
                maxLength={40}
                placeholder="Bijvoorbeeld 1987 of Zomer 1990"
              />
              <MemoryTextField />
              <div className="flex flex-col gap-3">
                <p className="text-sm font-medium">Foto’s of video’s (niet verplicht)</p>
                <FileDropZone
                  label={videos ? 'Kies foto’s of video’s' : 'Kies foto’s'}
                  hint={
                    videos
                      ? `Maximaal ${MEDIA_PER_MEMORY_MAX}; foto’s tot 20 MB, video’s (MP4, WebM) tot 100 MB. Van foto’s en video’s verwijderen we locatie en andere gegevens.`
                      : `${videoAndMusicOffMessage} Maximaal ${MEDIA_PER_MEMORY_MAX}; foto’s tot 20 MB. Van foto’s verwijderen we locatie en andere gegevens.`
                  }
                  videos={videos}
                  disabled={form.formState.isSubmitting}
                  onFiles={(list) => {
                    const { picked, problems: found } = pickFiles(
                      list,
                      queue.files.length,
                      MEDIA_PER_MEMORY_MAX,
                      videos,
                    );
                    queue.add(picked);
                    setProblems(found);
                  }}
                />
                {problems.length > 0 && (
                  <ul role="alert" className="flex flex-col gap-1 text-sm text-danger">
                    {problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                )}
                <UploadList
                  files={queue.files}
                  disabled={form.formState.isSubmitting}
                  onRemove={queue.remove}
                />
              </div>
              {!viewer.isGuestVisit && !conceptId && <MembersOnlyField />}
              <FormError />
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="outline" disabled={form.formState.isSubmitting} onClick={guard.requestClose}>
                  Annuleren
                </Button>
                <Button type="submit" disabled={form.formState.isSubmitting}>
                  {form.formState.isSubmitting && <Spinner className="[&>span]:h-4 [&>span]:w-4" />}
                  {form.formState.isSubmitting
                    ? busy
                      ? 'Foto’s uploaden…'
                      : 'Bezig met delen…'
                    : 'Herinnering delen'}
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

function MemoryTextField() {
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

function MembersOnlyField() {
  const { register } = useFormContext<Values>();
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-border p-4">
      <input type="checkbox" {...register('membersOnly')} className="mt-1 h-4 w-4 accent-[var(--primary)]" />
      <span>
        <span className="block text-sm font-medium">Alleen voor leden</span>
        <span className="block text-sm text-muted">
          Alleen mensen met een account die lid zijn van deze pagina zien deze herinnering.
        </span>
      </span>
    </label>
  );
}
