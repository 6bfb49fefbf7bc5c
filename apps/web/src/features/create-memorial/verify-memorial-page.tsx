import { useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { AlertCircle, HeartHandshake } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { useCreateMemorialConcept } from './api/create-memorial-concept.ts';
import { FlowCard } from './components/flow-card.tsx';
import { verifyMemorialRedirect } from './guards.ts';
import { namesFromSearch, withNames } from './names.ts';
import { appUrl } from '../../lib/app-url.ts';

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401)
    return error.message;
  if (error instanceof ApiError && error.isNetworkError) return error.message;
  return 'Het aanmaken van de pagina is niet gelukt. Probeer het opnieuw.';
}

/** /verify-memorial: confirm the names and create the memorial as a concept. */
export default function VerifyMemorialPage() {
  const [params] = useSearchParams();
  const auth = useAuth();
  const navigate = useNavigate();
  const names = namesFromSearch(params);
  const create = useCreateMemorialConcept();
  // One key per confirmation: repeats of this request give back the same page.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const busy = useRef(false);

  const redirect = verifyMemorialRedirect(names, auth.status);
  if (redirect) return <Navigate to={redirect} replace />;
  if (!names || auth.status === 'loading') return <PageSpinner />;

  const pending = create.isPending || create.isSuccess;

  const submit = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const { id } = await create.mutateAsync({ names, idempotencyKey });
      const elsewhere = appUrl(routes.memorial(id));
      if (elsewhere) window.location.assign(elsewhere);
      else await navigate(routes.memorial(id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await auth.signIn({ returnUrl: withNames(routes.verifyMemorial, names) });
      }
    } finally {
      busy.current = false;
    }
  };

  return (
    <FlowCard
      step={3}
      title="Controleer en maak de pagina"
      intro="Klopt de naam? Dan maken we de gedenkpagina voor je aan."
    >
      <title>Pagina maken · Aandenken</title>
      <div className="flex items-center gap-4 rounded-2xl border border-border bg-background-soft p-5">
        <div className="flex h-12 w-12 shrink-0 items-center justify-center rounded-2xl bg-accent-soft text-accent">
          <HeartHandshake aria-hidden className="h-6 w-6" />
        </div>
        <div>
          <p className="text-sm text-muted">Gedenkpagina voor</p>
          <p className="font-serif text-2xl font-semibold" data-testid="deceased-name">
            {names.firstName} {names.lastName}
          </p>
        </div>
      </div>
      <p className="mt-3 text-sm">
        <Link
          to={withNames(routes.createMemorial, names)}
          className="font-medium text-primary underline underline-offset-4"
        >
          Naam aanpassen
        </Link>
      </p>
      {create.isError && (
        <div
          role="alert"
          className="mt-6 flex items-start gap-3 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          <p>{failureMessage(create.error)}</p>
        </div>
      )}
      <p className="mt-6 text-sm leading-relaxed text-muted">
        Door verder te gaan ga je akkoord met de{' '}
        <Link to={routes.terms} className="underline underline-offset-4 hover:text-foreground">
          algemene voorwaarden
        </Link>{' '}
        en het{' '}
        <Link to={routes.privacy} className="underline underline-offset-4 hover:text-foreground">
          privacybeleid
        </Link>{' '}
        van Aandenken.
      </p>
      <Button
        size="lg"
        className="mt-6 w-full"
        disabled={pending}
        aria-busy={pending}
        onClick={() => void submit()}
      >
        {pending ? (
          <>
            <Spinner className="[&>span]:h-5 [&>span]:w-5" />
            Pagina wordt aangemaakt...
          </>
        ) : (
          'Maak pagina'
        )}
      </Button>
    </FlowCard>
  );
}
