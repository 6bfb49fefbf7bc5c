import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AlertCircle } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNT_DELETE_WORD,
  ORPHANED_MEMORIAL_DAYS,
  accountDeleteResultSchema,
  apiPaths,
  routes,
} from '@aandenken/contract';
import { PersonalExportSection } from '../../components/exports/export-panel.tsx';
import { Container } from '../../components/ui/container.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { ApiError, useApiClient } from '../../lib/api-client.ts';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { useAuth } from '../../lib/auth/auth-context.ts';

/** /account: who is signed in, and deleting the account (docs/privacy.md). */
export default function AccountPage() {
  // Deleting the account signs out: not a new sign-in when the session ends.
  const [leaving, setLeaving] = useState(false);
  const auth = useSignInRequired({ enabled: !leaving });

  return (
    <Container className="max-w-3xl py-12 sm:py-16">
      <title>Mijn account · Aandenken</title>
      <h1 className="text-3xl font-semibold sm:text-4xl">Mijn account</h1>
      {auth.status !== 'authenticated' || !auth.user ? (
        <PageSpinner />
      ) : (
        <>
          <dl className="mt-8 grid gap-4 rounded-2xl border border-border bg-card p-6 text-card-foreground sm:grid-cols-2">
            <div>
              <dt className="text-sm text-muted">Naam</dt>
              <dd className="font-medium">{auth.user.name}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">E-mailadres</dt>
              <dd className="font-medium break-all">{auth.user.email}</dd>
            </div>
          </dl>
          <div className="mt-12">
            <PersonalExportSection />
          </div>
          <DeleteAccount email={auth.user.email} onDeleted={() => setLeaving(true)} />
        </>
      )}
    </Container>
  );
}

function DeleteAccount({ email, onDeleted }: { email: string; onDeleted: () => void }) {
  const auth = useAuth();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (confirmation: string) =>
      client.post(apiPaths.accountDelete(), { confirmation }, { schema: accountDeleteResultSchema }),
    onSuccess: () => {
      onDeleted();
      queryClient.clear();
      // The sign-in has ended on the server already; this ends it in the browser too.
      void auth.signOut({ returnUrl: routes.home });
    },
  });

  const confirmed =
    typed.trim() === ACCOUNT_DELETE_WORD || typed.trim().toLowerCase() === email.toLowerCase();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!confirmed) {
      setFieldError(`Typ je e-mailadres of ${ACCOUNT_DELETE_WORD} om te bevestigen.`);
      return;
    }
    setFieldError(null);
    remove.mutate(typed.trim());
  };

  if (remove.isSuccess) {
    return (
      <p role="status" className="mt-10 rounded-2xl border border-border bg-background-soft p-6">
        Je account is verwijderd. Je wordt nu uitgelogd.
      </p>
    );
  }

  const error =
    fieldError ??
    (remove.isError
      ? remove.error instanceof ApiError
        ? remove.error.message
        : 'Je account kon niet worden verwijderd. Probeer het opnieuw.'
      : null);

  return (
    <section
      aria-labelledby="delete-account-heading"
      className="mt-10 rounded-2xl border border-danger/40 p-6 sm:p-8"
    >
      <h2 id="delete-account-heading" className="text-2xl font-semibold">
        Account verwijderen
      </h2>
      <div className="mt-4 flex flex-col gap-3 leading-relaxed text-muted">
        <p>Als je je account verwijdert:</p>
        <ul className="flex list-disc flex-col gap-2 pl-6">
          <li>word je overal uitgelogd en kun je niet meer inloggen met dit account;</li>
          <li>verwijderen we je naam, je e-mailadres en je wachtwoord;</li>
          <li>
            blijven je herinneringen, foto&apos;s en kaarsjes op de gedenkpagina&apos;s staan, zonder je naam:
            als afzender staat er &lsquo;een voormalig lid&rsquo;. Herinneringen die je nog niet had
            geplaatst, verdwijnen;
          </li>
          <li>
            gaat een pagina waarvan jij de enige eigenaar bent naar het volgende lid (eerst een redacteur).
            Heeft de pagina geen andere leden, dan is hij niemand meer zichtbaar en verwijderen we hem na{' '}
            {ORPHANED_MEMORIAL_DAYS} dagen.
          </li>
        </ul>
        <p>
          Wil je dat je herinneringen en foto&apos;s verdwijnen, verwijder ze dan eerst zelf op de pagina. Dit
          kan niet ongedaan worden gemaakt. Meer hierover lees je in de{' '}
          <Link to={routes.privacy} className="font-medium text-foreground underline underline-offset-4">
            privacyverklaring
          </Link>
          .
        </p>
      </div>
      <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-2">
        <label htmlFor={inputId} className="font-medium">
          Typ je e-mailadres of {ACCOUNT_DELETE_WORD} om te bevestigen
        </label>
        <p id={hintId} className="text-sm text-muted">
          Je e-mailadres is {email}.
        </p>
        <input
          id={inputId}
          name="confirmation"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
          className="h-11 rounded-xl border border-input bg-background px-4 text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        />
        {error && (
          <p id={errorId} role="alert" className="flex items-start gap-2 text-sm text-danger">
            <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
            {error}
          </p>
        )}
        <Button
          type="submit"
          className="mt-4 self-start bg-danger text-background hover:bg-danger/90"
          disabled={remove.isPending}
          aria-busy={remove.isPending}
        >
          {remove.isPending ? 'Account wordt verwijderd...' : 'Account definitief verwijderen'}
        </Button>
      </form>
    </section>
  );
}
