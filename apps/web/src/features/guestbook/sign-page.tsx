import { useState } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BookOpen } from 'lucide-react';
import {
  apiPaths,
  guestbookErrorCodes,
  guestbookPublicSchema,
  guestbookSignedSchema,
  guestbookSignSchema,
  type GuestbookSign,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextareaField, TextField } from '../../components/form/form.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { ApiError, useApiClient } from '../../lib/api-client.ts';

/**
 * /g/{token}: the guestbook's short link (the QR code on the poster leads here). A visitor signs with a
 * name, an optional address for a thank-you card and a message, without an account or the page's access
 * code, while the family has it open (docs/funeral-day.md). Made for a phone.
 */
export default function GuestbookSignPage() {
  const { token = '' } = useParams();
  const client = useApiClient();
  const info = useQuery({
    queryKey: ['guestbook-public', token],
    queryFn: ({ signal }) =>
      client.get(apiPaths.guestbookPublic(token), { schema: guestbookPublicSchema, signal }),
    retry: false,
  });
  const sign = useMutation({
    mutationFn: (input: GuestbookSign) =>
      client.post(apiPaths.guestbookSign(token), input, { schema: guestbookSignedSchema }),
  });
  const [signedAs, setSignedAs] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);

  if (info.isPending) return <PageSpinner />;
  if (info.isError || !info.data)
    return (
      <Container className="max-w-xl py-12">
        <title>Condoleanceregister · Aandenken</title>
        <h1 className="text-2xl font-semibold">Condoleanceregister</h1>
        <p className="mt-4" role="alert">
          {info.error instanceof ApiError && info.error.status === 404
            ? 'Dit condoleanceregister bestaat niet (meer). Controleer de link of scan de QR-code opnieuw.'
            : 'Het condoleanceregister kon niet worden geladen. Probeer het opnieuw.'}
        </p>
      </Container>
    );

  const g = info.data;
  return (
    <Container className="max-w-xl py-8 sm:py-12">
      <title>{`Condoleanceregister ${g.name} · Aandenken`}</title>
      {/* The short link is for the people at the service, not for search engines. */}
      <meta name="robots" content="noindex" />
      <div className="rounded-[1.75rem] border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8">
        <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.2em] text-accent uppercase">
          <BookOpen aria-hidden className="h-4 w-4" />
          Condoleanceregister
        </p>
        <h1 className="mt-2 font-serif text-3xl leading-tight font-semibold">{g.name}</h1>
        {g.dates && <p className="mt-1 tracking-[0.2em] text-accent">{g.dates}</p>}

        {signedAs ? (
          <p role="status" className="mt-6 text-lg">
            Dank je wel, {signedAs}. Je naam staat in het condoleanceregister.
          </p>
        ) : !g.open || closed ? (
          <p className="mt-6 text-lg">Het condoleanceregister is gesloten.</p>
        ) : (
          <>
            <p className="mt-4 text-sm leading-relaxed text-muted">
              Laat je naam en een bericht achter voor de familie. Je adres is niet verplicht; de familie kan
              het gebruiken voor een bedankkaart. Alleen de familie ziet wat je schrijft.
            </p>
            <Form
              schema={guestbookSignSchema}
              defaultValues={{ name: '', address: '', message: '' }}
              aria-label="Het condoleanceregister tekenen"
              className="mt-6 flex flex-col gap-4"
              onSubmit={async (values) => {
                try {
                  await sign.mutateAsync(values);
                  setSignedAs(values.name);
                } catch (e) {
                  if (e instanceof ApiError && e.code === guestbookErrorCodes.closed) setClosed(true);
                  throw e;
                }
              }}
            >
              {(form) => (
                <>
                  <TextField name="name" label="Je naam" required autoComplete="name" />
                  <TextareaField name="message" label="Je bericht (niet verplicht)" rows={4} />
                  <TextareaField
                    name="address"
                    label="Je adres voor een bedankkaart (niet verplicht)"
                    autoComplete="street-address"
                    rows={2}
                  />
                  <FormError />
                  <SubmitButton busyLabel="Tekenen..." disabled={form.formState.isSubmitting}>
                    Tekenen
                  </SubmitButton>
                </>
              )}
            </Form>
          </>
        )}
      </div>
    </Container>
  );
}
