import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import {
  apiPaths,
  takedownReasonLabels,
  takedownReasons,
  takedownReportResultSchema,
  takedownReportSchema,
  type TakedownItemType,
} from '@aandenken/contract';
import * as z from 'zod/mini';
import { Form, FormError, SelectField, SubmitButton, TextareaField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useApiClient } from '../../../lib/api-client.ts';

const schema = z.object({
  reason: z.enum(takedownReasons, { error: 'Kies een reden' }),
  details: takedownReportSchema.shape.details,
});
const reasonOptions = takedownReasons.map((value) => ({ value, label: takedownReasonLabels[value] }));

/** 'Melden': why something should not be on the page; the family and our team are told. */
export function ReportDialog({
  open,
  onOpenChange,
  itemType,
  itemId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  itemType: TakedownItemType;
  itemId: string;
}) {
  const client = useApiClient();
  const [sent, setSent] = useState(false);
  const what = itemType === 'memory' ? 'deze herinnering' : 'deze foto';
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setSent(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      size="sm"
      title={itemType === 'memory' ? 'Herinnering melden' : 'Foto melden'}
      description={`Hoort ${what} hier niet? Laat ons weten waarom. De familie en ons team krijgen bericht.`}
    >
      {sent ? (
        <div role="status" className="flex flex-col items-start gap-4 px-6 pb-6 sm:px-8 sm:pb-8">
          <p className="flex items-start gap-2">
            <CheckCircle2 aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-accent" />
            Bedankt voor je melding. De familie en ons team kijken ernaar.
          </p>
          <Button variant="outline" onClick={() => close(false)}>
            Sluiten
          </Button>
        </div>
      ) : (
        <Form
          schema={schema}
          aria-label={`${what} melden`}
          onSubmit={async (values) => {
            await client.post(
              apiPaths.takedownReport(),
              { itemType, itemId, reason: values.reason, details: values.details || undefined },
              { schema: takedownReportResultSchema },
            );
            setSent(true);
          }}
          className="flex flex-col gap-5 px-6 pb-6 sm:px-8 sm:pb-8"
        >
          {() => (
            <>
              <SelectField
                name="reason"
                label="Reden"
                required
                placeholder="Kies een reden"
                options={reasonOptions}
              />
              <TextareaField
                name="details"
                label="Toelichting"
                hint="Niet verplicht. Alleen ons team leest dit."
                rows={4}
                maxLength={2000}
              />
              <FormError />
              <div className="flex flex-wrap justify-end gap-3">
                <Button variant="outline" type="button" onClick={() => close(false)}>
                  Annuleren
                </Button>
                <SubmitButton busyLabel="Versturen…">Melding versturen</SubmitButton>
              </div>
            </>
          )}
        </Form>
      )}
    </Dialog>
  );
}
