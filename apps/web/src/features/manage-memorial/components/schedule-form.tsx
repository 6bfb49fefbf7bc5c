import type { ReactNode } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type * as z from 'zod/mini';
import { Form, FormError, SubmitButton, TextField, type AnySchema } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';

/**
 * The form for something planned on a day at a time (a service of the funeral day, a kaarsjesmoment):
 * 'Datum' and 'Begintijd' (the fields `date` and `startTime`, where the server's messages land), what the tab
 * adds around them, the form's error, 'Opslaan' and 'Annuleren'. Saved, it closes through `onDone`.
 */
export function ScheduleForm<S extends AnySchema>({
  schema,
  defaultValues,
  label,
  onSave,
  onDone,
  startTimeHint,
  before,
  children,
}: {
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  /** The form's accessible name, e.g. 'Bijeenkomst toevoegen'. */
  label: string;
  /** Sends the values; may throw (an ApiError's messages land on the fields and above the buttons). */
  onSave: (values: z.output<S>) => Promise<void>;
  onDone: () => void;
  startTimeHint?: ReactNode;
  /** Fields before the date. */
  before?: ReactNode;
  /** Fields after the start time. */
  children: ReactNode;
}) {
  return (
    <Form
      schema={schema}
      defaultValues={defaultValues}
      aria-label={label}
      className="mb-8 grid gap-4 rounded-2xl border border-border bg-background-soft p-4 sm:grid-cols-2 sm:p-6"
      onSubmit={async (values) => {
        await onSave(values);
        onDone();
      }}
    >
      {() => (
        <>
          {before}
          <TextField name="date" label="Datum" type="date" required />
          <TextField name="startTime" label="Begintijd" type="time" required hint={startTimeHint} />
          {children}
          <FormError className="sm:col-span-2" />
          <div className="flex flex-wrap gap-3 sm:col-span-2">
            <SubmitButton busyLabel="Opslaan...">Opslaan</SubmitButton>
            <Button variant="ghost" onClick={onDone}>
              Annuleren
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}
