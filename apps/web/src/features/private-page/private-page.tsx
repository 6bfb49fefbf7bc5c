import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ArrowRight, KeyRound, LifeBuoy } from 'lucide-react';
import { accessCodeFormSchema, ACCESS_CODE_LENGTH, routes } from '@aandenken/contract';
import { Form, FormError, SubmitButton } from '../../components/form/form.tsx';
import { storeGuestToken } from '../../lib/guest-token.ts';
import { accessCodeErrorMessage, challengeOf } from './api/access-code-errors.ts';
import { useRequestGuestToken } from './api/request-guest-token.ts';
import { solveChallenge } from './api/solve-challenge.ts';
import { AccessCodeField } from './access-code-field.tsx';
import { CodeFromLink } from './code-from-link.tsx';

const solvingText =
  'Er worden nu veel onjuiste codes geprobeerd. Je browser doet daarom eerst een korte controle; even geduld.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /beslotenpagina: the visitor enters the 8-digit code and gets into the private memorial page. A link from a
 * mail or a printed card names the page (`?pagina=<id>`): the code is then compared with that page only.
 * When many wrong codes come in, the server asks for a proof of work first; the browser solves it in a
 * worker from our own bundle and sends the code again.
 */
export default function PrivatePage() {
  const navigate = useNavigate();
  const guestToken = useRequestGuestToken();
  const [params] = useSearchParams();
  const named = params.get('pagina');
  const memorialId = named && UUID.test(named) ? named : undefined;
  const [solving, setSolving] = useState(false);

  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-center overflow-hidden py-16">
      <title>Besloten pagina · Aandenken</title>
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_24rem_at_50%_0%,color-mix(in_srgb,var(--primary)_14%,transparent),transparent)]"
      />
      <div className="relative mx-auto w-full max-w-md px-5">
        <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-lift sm:p-10">
          <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            <KeyRound aria-hidden className="h-6 w-6" />
          </div>
          <h1 className="mt-6 text-center text-3xl font-semibold">Ga naar de besloten pagina</h1>
          <p className="mt-3 text-center leading-relaxed text-muted">
            Vul de code van {ACCESS_CODE_LENGTH} cijfers in die je per e-mail of op een kaartje hebt
            ontvangen.
          </p>
          <Form
            schema={accessCodeFormSchema}
            defaultValues={{ accessCode: '' }}
            className="mt-8 flex flex-col gap-5"
            aria-label="Toegangscode invullen"
            onSubmit={async ({ accessCode }, form) => {
              let pow: string | undefined;
              // At most two challenges: a solution may be refused once (expired, or used by another tab).
              for (let round = 0; ; round++) {
                try {
                  const opened = await guestToken.mutateAsync({ accessCode, memorialId, pow });
                  storeGuestToken(opened.token);
                  await navigate(routes.memorial(opened.memorialId));
                  return;
                } catch (error) {
                  const challenge = challengeOf(error);
                  if (challenge && round < 2) {
                    setSolving(true);
                    try {
                      pow = await solveChallenge(challenge);
                      continue;
                    } catch {
                      // Not solved (no workers, or no solution): told below.
                    } finally {
                      setSolving(false);
                    }
                  }
                  form.setError(
                    'accessCode',
                    { type: 'server', message: accessCodeErrorMessage(error) },
                    { shouldFocus: true },
                  );
                  return;
                }
              }
            }}
          >
            {() => (
              <>
                <CodeFromLink />
                <AccessCodeField label="Toegangscode" />
                <FormError />
                {/* Always present, so screen readers announce the change; the visible copy only while solving. */}
                <p role="status" className="sr-only">
                  {solving ? solvingText : ''}
                </p>
                {solving && (
                  <p aria-hidden className="text-center text-sm leading-relaxed text-muted">
                    {solvingText}
                  </p>
                )}
                <SubmitButton
                  size="lg"
                  className="w-full"
                  busyLabel="Bezig met openen..."
                  iconAfter={<ArrowRight aria-hidden className="h-4 w-4" />}
                >
                  Ga naar pagina
                </SubmitButton>
              </>
            )}
          </Form>
        </div>
        <aside
          aria-labelledby="help-heading"
          className="mt-6 flex gap-4 rounded-2xl border border-border bg-card/70 p-5"
        >
          <LifeBuoy aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
          <div>
            <h2 id="help-heading" className="font-sans text-sm font-semibold">
              Hulp nodig?
            </h2>
            <p className="mt-1 text-sm leading-relaxed text-muted">
              Heb je geen code ontvangen of lukt het niet om de pagina te openen?{' '}
              <Link to={routes.contact} className="font-medium text-primary underline underline-offset-4">
                Neem contact met ons op
              </Link>
              .
            </p>
          </div>
        </aside>
      </div>
    </section>
  );
}
