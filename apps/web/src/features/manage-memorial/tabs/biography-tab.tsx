import { useId, useState } from 'react';
import { Link } from 'react-router';
import { BookOpen, Check, ListChecks } from 'lucide-react';
import { BIOGRAPHY_MAX_CHARS, routes, type Memorial } from '@aandenken/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { DraftNotice } from '../../../components/ui/discard-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { draftKey, useLeaveWarning, useStoredDraft } from '../../../lib/drafts.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useBiography } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { useSaveBiography } from '../api/biography.ts';
import { RichTextEditor } from '../components/rich-text-editor.tsx';
import { errorText, Section } from '../components/section.tsx';
import '../manage.css';

/** 'Levensverhaal' with a rich-text editor; the server keeps only the allowed structure. */
export default function BiographyTab({ memorial }: { memorial: Memorial }) {
  const bio = useBiography(memorial.id);
  const save = useSaveBiography(memorial.id);
  // Kept in this browser until saved, so another tab or a reload does not lose it (lib/drafts.tsx).
  const [draft, setDraft] = useStoredDraft<{ html: string }>(draftKey(memorial.id, 'biography'));
  // Remounts the editor when a draft is thrown away, so it shows the saved text again.
  const [editorKey, setEditorKey] = useState(0);
  const labelId = useId();
  const hintId = useId();

  const dirty = draft !== null && bio.isSuccess && draft.html !== (bio.data.html ?? '');
  useLeaveWarning(dirty);
  const tooLong = (draft?.html.length ?? 0) > BIOGRAPHY_MAX_CHARS;

  return (
    <Section
      title="Levensverhaal"
      description={`Vertel wie ${memorial.firstName} was: waar het leven begon, wat telde, wat bleef. Gebruik koppen om het verhaal in hoofdstukken te delen.`}
      actions={
        <div className="flex flex-wrap gap-2">
          <Link to={routes.memorialBiographyHelp(memorial.id)} className={buttonClass('outline', 'md')}>
            <ListChecks aria-hidden className="h-4 w-4" />
            Hulp bij schrijven: vragenlijst
          </Link>
          <Link to={routes.memorialBook(memorial.id)} className={buttonClass('outline', 'md')}>
            <BookOpen aria-hidden className="h-4 w-4" />
            Gedrukt boek
          </Link>
        </div>
      }
    >
      <h3 id={labelId} className="sr-only">
        Levensverhaal van {memorial.firstName}
      </h3>
      <QueryState
        query={bio}
        skeleton={<Skeleton className="h-96 rounded-2xl" />}
        error="Het levensverhaal kon niet worden geladen."
      >
        {(data) => (
          <>
            {dirty && (
              <DraftNotice
                className="mb-4"
                onDiscard={() => {
                  setDraft(null);
                  setEditorKey((k) => k + 1);
                }}
              />
            )}
            <RichTextEditor
              key={editorKey}
              initialHtml={draft?.html ?? data.html}
              labelId={labelId}
              describedBy={hintId}
              onChange={(html, empty) => {
                const next = empty ? '' : html;
                // Back to what is saved: nothing left to keep.
                setDraft(next === (data.html ?? '') ? null : { html: next });
              }}
            />
            <div className="mt-5 flex flex-wrap items-center justify-between gap-4">
              <p id={hintId} className="text-sm text-muted">
                {tooLong
                  ? 'Het levensverhaal is te lang. Maak het wat korter.'
                  : data.updatedAt
                    ? `Laatst opgeslagen op ${formatDate(data.updatedAt)}${data.updatedBy ? ` door ${data.updatedBy}` : ''}.`
                    : 'Nog niet opgeslagen.'}
              </p>
              <Button
                disabled={!dirty || tooLong || save.isPending}
                onClick={() =>
                  save.mutate(draft!.html, {
                    onSuccess: () => {
                      setDraft(null);
                      toast.success('Het levensverhaal is opgeslagen');
                    },
                    onError: (e) => toast.error('Opslaan is niet gelukt', errorText(e)),
                  })
                }
              >
                {save.isPending ? (
                  <Spinner className="[&>span]:h-4 [&>span]:w-4" />
                ) : (
                  <Check aria-hidden className="h-4 w-4" />
                )}
                Levensverhaal opslaan
              </Button>
            </div>
          </>
        )}
      </QueryState>
    </Section>
  );
}
