import * as z from 'zod/mini';
import {
  funeralDayErrorCodes,
  RSVP_PEOPLE_MAX,
  rsvpCreateSchema,
  type Memorial,
  type MemorialService,
} from '@aandenken/contract';
import { Form, FormError, TextareaField, TextField, SubmitButton } from '../../../components/form/form.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useRsvp } from '../api/services.ts';

/** The form sends the number field as text; the contract's rule checks it after. */
const rsvpFormSchema = z.object({
  ...rsvpCreateSchema.shape,
  people: z.pipe(
    z.pipe(
      z.string(),
      z.transform((s: string) => (s.trim() === '' ? Number.NaN : Number(s))),
    ),
    rsvpCreateSchema.shape.people,
  ),
});

/** Signing up for after a service (services-section.tsx), in a chunk of its own with the form library. */
export default function RsvpForm({
  memorial,
  service: s,
  defaultName,
  headingId,
  onDone,
  onClosed,
}: {
  memorial: Memorial;
  service: MemorialService;
  defaultName: string;
  headingId: string;
  onDone: (done: { name: string; people: number }) => void;
  onClosed: () => void;
}) {
  const rsvp = useRsvp(memorial.id, s.id);
  return (
    <Form
      schema={rsvpFormSchema}
      defaultValues={{ name: defaultName, people: '1', note: '' }}
      aria-labelledby={headingId}
      className="mt-4 flex flex-col gap-4"
      onSubmit={async (values) => {
        try {
          await rsvp.mutateAsync(values);
          onDone({ name: values.name, people: values.people });
        } catch (e) {
          if (e instanceof ApiError && e.code === funeralDayErrorCodes.rsvpClosed) onClosed();
          throw e;
        }
      }}
    >
      {(form) => (
        <>
          <TextField name="name" label="Je naam" required autoComplete="name" />
          <TextField
            name="people"
            label="Met hoeveel personen kom je?"
            required
            type="number"
            inputMode="numeric"
            min={1}
            max={RSVP_PEOPLE_MAX}
            className="max-w-48"
          />
          <TextareaField name="note" label="Opmerking (niet verplicht)" rows={2} />
          <FormError />
          <SubmitButton busyLabel="Aanmelden..." disabled={form.formState.isSubmitting}>
            Aanmelden
          </SubmitButton>
        </>
      )}
    </Form>
  );
}
