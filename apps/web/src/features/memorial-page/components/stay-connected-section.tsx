import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import * as z from 'zod/mini';
import {
  apiPaths,
  subscriptionKindLabels,
  subscriptionPendingSchema,
  type Memorial,
  type SubscriptionCreate,
  type SubscriptionKind,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextField } from '../../../components/form/form.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { useApiClient } from '../../../lib/api-client.ts';

const formSchema = z.object({
  email: z.string(),
  messages: z.boolean(),
  birthday: z.boolean(),
  deathday: z.boolean(),
  remembrance: z.boolean(),
  consent: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;

function Check({ name, label, hint }: { name: keyof FormValues; label: string; hint?: string }) {
  const { register, formState } = useFormContext<FormValues>();
  const error = formState.errors[name]?.message;
  const errorId = `stay-connected-${name}-error`;
  return (
    <div>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 h-5 w-5 shrink-0 accent-primary"
          aria-invalid={!!error}
          aria-describedby={error ? errorId : undefined}
          {...register(name)}
        />
        <span>
          <span className="font-medium">{label}</span>
          {hint && <span className="block text-sm text-muted">{hint}</span>}
        </span>
      </label>
      {error && (
        <p id={errorId} className="mt-1 ml-8 text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * 'Blijf verbonden' (docs/funeral-day.md): anyone who may see the page leaves an address, with explicit
 * consent, for the family's future messages and a mail on the birthday, the day of death and remembrance days
 * (Allerzielen, Wereldlichtjesdag, the family's kaarsjesmomenten). Nothing is
 * sent before the link in the confirmation mail is followed (double opt-in); every mail after that can be
 * switched off with one click. Its own chunk, after the page is up.
 */
export default function StayConnectedSection({ memorial }: { memorial: Memorial }) {
  const client = useApiClient();
  const subscribe = useMutation({
    mutationFn: (input: SubscriptionCreate) =>
      client.post(apiPaths.memorialSubscriptions(memorial.id), input, { schema: subscriptionPendingSchema }),
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (memorial.status === 'archived') return null;
  return (
    <section
      aria-labelledby="stay-connected"
      className="border-t border-border bg-background-soft py-12 sm:py-16"
    >
      <Container className="max-w-2xl">
        <h2 id="stay-connected" className="text-3xl font-semibold sm:text-4xl">
          Blijf verbonden
        </h2>
        <p className="mt-3 text-muted">
          Ontvang de berichten die de familie voor later schrijft, en een e-mail op de verjaardag, de sterfdag
          of herdenkingsdagen met een link naar deze pagina. Je kunt je altijd met één klik weer afmelden.
        </p>
        {sentTo ? (
          <p
            role="status"
            className="mt-6 flex items-start gap-3 rounded-2xl border border-border bg-card p-4"
          >
            <MailCheck aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
            <span>
              Bijna klaar. We hebben een e-mail gestuurd naar <strong>{sentTo}</strong>. Klik op de link
              daarin om je aanmelding te bevestigen; zonder bevestiging sturen we niets.
            </span>
          </p>
        ) : (
          <Form
            schema={formSchema}
            defaultValues={{
              email: '',
              messages: true,
              birthday: false,
              deathday: false,
              remembrance: false,
              consent: false,
            }}
            aria-labelledby="stay-connected"
            className="mt-6 flex flex-col gap-4"
            onSubmit={async (v, form) => {
              const kinds: SubscriptionKind[] = (
                ['messages', 'birthday', 'deathday', 'remembrance'] as const
              ).filter((k) => v[k]);
              if (kinds.length === 0) {
                form.setError('messages', { type: 'server', message: 'Kies minstens één soort bericht' });
                return;
              }
              if (!v.consent) {
                form.setError(
                  'consent',
                  { type: 'server', message: 'Geef toestemming om e-mail te ontvangen' },
                  { shouldFocus: true },
                );
                return;
              }
              await subscribe.mutateAsync({ email: v.email, kinds, consent: true });
              setSentTo(v.email.trim());
            }}
          >
            {() => (
              <>
                <TextField name="email" label="Je e-mailadres" type="email" autoComplete="email" required />
                <fieldset className="flex flex-col gap-3">
                  <legend className="mb-2 font-medium">Wat wil je ontvangen?</legend>
                  <Check name="messages" label={subscriptionKindLabels.messages} />
                  {memorial.birthDate && <Check name="birthday" label={subscriptionKindLabels.birthday} />}
                  {memorial.deathDate && <Check name="deathday" label={subscriptionKindLabels.deathday} />}
                  <Check
                    name="remembrance"
                    label={subscriptionKindLabels.remembrance}
                    hint="Op Allerzielen, op Wereldlichtjesdag bij de pagina van een kind, en op de dag van een kaarsjesmoment van de familie."
                  />
                </fieldset>
                <Check
                  name="consent"
                  label="Ik geef toestemming om deze e-mails te ontvangen"
                  hint="Je adres wordt alleen hiervoor gebruikt en niet aan de familie getoond."
                />
                <FormError />
                <SubmitButton busyLabel="Aanmelden...">Aanmelden</SubmitButton>
              </>
            )}
          </Form>
        )}
      </Container>
    </section>
  );
}
