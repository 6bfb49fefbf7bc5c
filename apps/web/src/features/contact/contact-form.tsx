import { useState } from 'react';
import { CheckCircle2, Send } from 'lucide-react';
import { contactMessageSchema, contactSubjectLabels, contactSubjects } from '@aandenken/contract';
import {
  Form,
  FormError,
  SelectField,
  TextareaField,
  TextField,
  SubmitButton,
} from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useSendContactMessage } from './api/send-contact-message.ts';

const subjectOptions = contactSubjects.map((value) => ({ value, label: contactSubjectLabels[value] }));

export function ContactForm() {
  const send = useSendContactMessage();
  const [sent, setSent] = useState(false);

  if (sent) {
    return (
      <div
        role="status"
        className="flex flex-col items-center rounded-2xl bg-success-soft px-6 py-12 text-center"
      >
        <CheckCircle2 aria-hidden className="h-10 w-10 text-success" />
        <h3 className="mt-4 text-2xl font-semibold">Bedankt voor je bericht!</h3>
        <p className="mt-2 max-w-sm text-muted">We hebben je bericht ontvangen en reageren binnen 24 uur.</p>
        <Button variant="outline" className="mt-6" onClick={() => setSent(false)}>
          Nog een bericht sturen
        </Button>
      </div>
    );
  }

  return (
    <Form
      schema={contactMessageSchema}
      aria-labelledby="contact-form-heading"
      defaultValues={{ name: '', email: '', subject: '' as never, message: '' }}
      onSubmit={async (values) => {
        await send.mutateAsync(values);
        setSent(true);
      }}
      className="flex flex-col gap-5"
    >
      {() => (
        <>
          <p className="text-sm text-muted">
            Velden met een <span className="text-accent">*</span> zijn verplicht.
          </p>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField name="name" label="Naam" required autoComplete="name" />
            <TextField name="email" label="E-mailadres" required type="email" autoComplete="email" />
          </div>
          <SelectField
            name="subject"
            label="Onderwerp"
            required
            placeholder="Kies een onderwerp"
            options={subjectOptions}
          />
          <TextareaField name="message" label="Bericht" required rows={6} />
          <FormError />
          <SubmitButton
            size="lg"
            className="w-full sm:w-auto sm:self-start"
            busyLabel="Versturen..."
            icon={<Send aria-hidden className="h-4 w-4" />}
          >
            Bericht versturen
          </SubmitButton>
        </>
      )}
    </Form>
  );
}
