import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Mail } from 'lucide-react';
import { protectEmailSchema, routes } from '@aandenken/contract';
import { Form, TextField } from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { useSignInMethods } from './api/sign-in-methods.ts';
import { FlowCard } from './components/flow-card.tsx';
import { protectMemorialRedirect } from './guards.ts';
import { namesFromSearch, withNames } from './names.ts';

/**
 * /protect-memorial: register (with e-mail, or Google when it is set up) or log in before the page is made, so that only its
 * maker can manage it. Without names back to step 1; signed in already straight to step 3.
 */
export default function ProtectMemorialPage() {
  const [params] = useSearchParams();
  const auth = useAuth();
  const names = namesFromSearch(params);
  const [leaving, setLeaving] = useState(false);
  const methods = useSignInMethods();

  const redirect = protectMemorialRedirect(names, auth.status);
  if (redirect) return <Navigate to={redirect} replace />;
  if (!names || auth.status === 'loading') return <PageSpinner />;

  const returnUrl = withNames(routes.verifyMemorial, names);
  const go = (start: () => Promise<void>) => {
    setLeaving(true);
    void start().finally(() => setLeaving(false));
  };

  return (
    <FlowCard
      step={2}
      title="Bescherm de pagina"
      intro={
        <>
          Maak een account aan, zodat alleen jij de pagina voor{' '}
          <strong className="font-semibold text-foreground">
            {names.firstName} {names.lastName}
          </strong>{' '}
          kunt beheren.
        </>
      }
    >
      <title>Bescherm de pagina · Aandenken</title>
      <Form
        schema={protectEmailSchema}
        defaultValues={{ email: '' }}
        className="flex flex-col gap-5"
        aria-label="Account aanmaken met e-mail"
        onSubmit={async ({ email }) => {
          setLeaving(true);
          await auth.register({ returnUrl, loginHint: email });
        }}
      >
        {() => (
          <>
            <TextField
              name="email"
              label="E-mailadres"
              type="email"
              required
              autoComplete="email"
              inputMode="email"
            />
            <Button type="submit" size="lg" className="w-full" disabled={leaving}>
              {leaving ? (
                <Spinner className="[&>span]:h-5 [&>span]:w-5" />
              ) : (
                <Mail aria-hidden className="h-4 w-4" />
              )}
              Doorgaan met e-mail
            </Button>
          </>
        )}
      </Form>
      {/* Only when Google is set up: without it the button would lead nowhere. */}
      {methods.data?.google && (
        <>
          <div className="my-6 flex items-center gap-3 text-sm text-muted" aria-hidden>
            <span className="h-px flex-1 bg-border" />
            of
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button
            variant="outline"
            size="lg"
            className="w-full"
            disabled={leaving}
            onClick={() => go(() => auth.signIn({ returnUrl, idpHint: 'google' }))}
          >
            <span aria-hidden className="font-bold">
              G
            </span>
            Inloggen met Google
          </Button>
        </>
      )}
      <p className="mt-6 text-center text-sm text-muted">
        <button
          type="button"
          className="cursor-pointer font-medium text-primary underline underline-offset-4"
          onClick={() => go(() => auth.signIn({ returnUrl }))}
        >
          Ik heb al een account
        </button>
      </p>
    </FlowCard>
  );
}
