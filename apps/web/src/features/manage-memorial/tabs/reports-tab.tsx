import { useState } from 'react';
import {
  takedownHideSchema,
  takedownReasonLabels,
  type Memorial,
  type TakedownItem,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextareaField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { PageSpinner } from '../../../components/ui/spinner.tsx';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { useOwnerHide, usePageReports } from '../api/takedowns.ts';
import { errorText, Section } from '../components/section.tsx';

/**
 * 'Meldingen' (owners): what visitors reported on this page, and what is hidden, by whom and why. Owners
 * hide an item themselves, and show again what they hid; what our team hid, only the team shows again.
 */
export function ReportsTab({ memorial }: { memorial: Memorial }) {
  const reports = usePageReports(memorial.id);
  const hide = useOwnerHide(memorial.id);
  const [hiding, setHiding] = useState<TakedownItem | null>(null);

  const unhide = async (item: TakedownItem) => {
    try {
      await hide.mutateAsync({ itemType: item.itemType, itemId: item.itemId });
      toast.success('Het onderdeel is weer zichtbaar');
    } catch (error) {
      toast.error('Terugzetten is niet gelukt', errorText(error));
    }
  };

  return (
    <Section
      title="Meldingen"
      description="Bezoekers kunnen een herinnering of foto melden als die er volgens hen niet hoort. Wat verborgen is, zien alleen de eigenaren nog."
    >
      <QueryState query={reports} skeleton={<PageSpinner />} error="De meldingen konden niet worden geladen.">
        {(data) =>
          data.items.length === 0 ? (
            <p className="text-muted">Er is niets gemeld of verborgen op deze pagina.</p>
          ) : (
            <ul className="grid gap-4">
              {data.items.map((item) => {
                const kind = item.itemType === 'memory' ? 'Herinnering' : 'Foto of video';
                return (
                  <li key={item.itemId} className="rounded-2xl border border-border p-5">
                    <p className="font-medium">{kind}</p>
                    <p className="mt-1 whitespace-pre-line text-muted">{item.preview}</p>
                    {item.reports.length > 0 && (
                      <ul className="mt-3 grid gap-1 text-sm">
                        {item.reports.map((r) => (
                          <li key={r.id}>
                            Gemeld: {takedownReasonLabels[r.reason]}
                            <span className="text-muted"> · {formatDate(r.createdAt)}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                    {item.hidden && (
                      <p className="mt-3 rounded-xl bg-secondary px-3 py-2 text-sm">
                        {item.hidden.by === 'team'
                          ? 'Verborgen door het team van Aandenken'
                          : 'Verborgen door een eigenaar'}
                        {' · '}
                        {formatDate(item.hidden.at)}. Reden: {item.hidden.reason}
                      </p>
                    )}
                    <div className="mt-4 flex flex-wrap gap-3">
                      {!item.hidden ? (
                        <Button size="sm" onClick={() => setHiding(item)} disabled={hide.isPending}>
                          Verbergen
                        </Button>
                      ) : item.hidden.by === 'owner' ? (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => void unhide(item)}
                          disabled={hide.isPending}
                        >
                          Weer tonen
                        </Button>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
      <Dialog
        open={hiding !== null}
        onOpenChange={(open) => !open && setHiding(null)}
        title="Verbergen"
        description="Bezoekers en leden zien het niet meer; de eigenaren zien het hier nog."
      >
        {hiding && (
          <Form
            schema={takedownHideSchema}
            defaultValues={{ reason: '' }}
            aria-label="Verbergen"
            className="grid gap-4 px-6 pb-6 sm:px-8 sm:pb-8"
            onSubmit={async ({ reason }) => {
              await hide.mutateAsync({ itemType: hiding.itemType, itemId: hiding.itemId, reason });
              toast.success('Het onderdeel is verborgen');
              setHiding(null);
            }}
          >
            {() => (
              <>
                <TextareaField name="reason" label="Reden (alleen voor de eigenaren)" required rows={3} />
                <FormError />
                <SubmitButton>Verbergen</SubmitButton>
              </>
            )}
          </Form>
        )}
      </Dialog>
    </Section>
  );
}
