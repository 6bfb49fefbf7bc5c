import type { ReactNode } from 'react';
import { useState } from 'react';
import {
  companyStateLabels,
  companyTypeLabels,
  grantTeamSchema,
  rejectApplicationSchema,
  type CompanyResponse,
} from '@aandenken/contract';
import { Container } from '../../components/ui/container.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { Form, FormError, SubmitButton, TextField, TextareaField } from '../../components/form/form.tsx';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { useAccountRoles } from '../../lib/account/roles.ts';
import { formatDate } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import {
  useApplications,
  useCompanies,
  useCompanyState,
  useDecision,
  useGrantTeam,
  useRevokeTeam,
  useTeamMembers,
} from './team-api.ts';
import { TeamHandOver, TeamReports } from './team-reports.tsx';
import { TeamPlans } from './team-plans.tsx';

/** /team/aanvragen: the team reviews partner applications and manages the companies' states. */
export default function TeamReviewPage() {
  const auth = useSignInRequired();
  const signedIn = auth.status === 'authenticated';
  const roles = useAccountRoles(signedIn);
  const isTeam = roles.data?.team === true;

  return (
    <Container className="py-12 sm:py-16">
      <title>Partneraanvragen · Aandenken</title>
      <h1 className="text-3xl font-semibold sm:text-4xl">Partneraanvragen</h1>
      <p className="mt-2 text-muted">Beoordeel aanvragen van bedrijven en beheer de partners.</p>
      {!signedIn || roles.isPending ? (
        <PageSpinner />
      ) : !isTeam ? (
        <p role="status" className="mt-10 rounded-2xl border border-border bg-card p-6">
          Deze pagina is alleen voor het team van Aandenken. Hoor je bij het team? Bevestig dan eerst je
          e-mailadres en open deze pagina daarna opnieuw.
        </p>
      ) : (
        <>
          <Applications />
          <TeamReports />
          <Companies />
          <TeamHandOver />
          <TeamPlans />
          <TeamMembers />
        </>
      )}
    </Container>
  );
}

function Applications() {
  const applications = useApplications(true);
  const decision = useDecision();
  const [rejecting, setRejecting] = useState<CompanyResponse | null>(null);

  const approve = async (a: CompanyResponse) => {
    try {
      await decision.mutateAsync({ id: a.id });
      toast.success(`${a.companyName} is goedgekeurd`, 'De aanvrager krijgt een e-mail om in te loggen.');
    } catch (error) {
      toast.error('Goedkeuren is niet gelukt', error instanceof Error ? error.message : undefined);
    }
  };

  return (
    <section aria-labelledby="aanvragen-titel" className="mt-10">
      <h2 id="aanvragen-titel" className="text-2xl font-semibold">
        Openstaande aanvragen
      </h2>
      <QueryState
        query={applications}
        skeleton={<PageSpinner />}
        error="De aanvragen konden niet worden geladen."
      >
        {(data) =>
          data.items.length === 0 ? (
            <p className="mt-4 text-muted">Er zijn geen openstaande aanvragen.</p>
          ) : (
            <ul className="mt-4 grid gap-5">
              {data.items.map((a) => (
                <li key={a.id}>
                  <article
                    aria-labelledby={`aanvraag-${a.id}`}
                    className="rounded-2xl border border-border bg-card p-6 shadow-soft"
                  >
                    <h3 id={`aanvraag-${a.id}`} className="text-xl font-semibold">
                      {a.companyName}
                    </h3>
                    <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[12rem_1fr]">
                      <Field label="Soort bedrijf">{companyTypeLabels[a.companyType]}</Field>
                      {a.serviceDescription && <Field label="Diensten">{a.serviceDescription}</Field>}
                      <Field label="Contactpersoon">
                        {a.firstName} {a.lastName}
                      </Field>
                      <Field label="Adres">
                        {a.streetName} {a.houseNumber}, {a.postalCode}
                      </Field>
                      <Field label="Telefoon">{a.phoneNumber}</Field>
                      <Field label="E-mail">{a.email}</Field>
                      {a.additionalInfo && (
                        <Field label="Aanvullende informatie">
                          <span className="whitespace-pre-line">{a.additionalInfo}</span>
                        </Field>
                      )}
                      <Field label="Ontvangen op">{formatDate(a.createdAt)}</Field>
                    </dl>
                    <div className="mt-5 flex flex-wrap gap-3">
                      <Button
                        onClick={() => void approve(a)}
                        disabled={decision.isPending}
                        aria-label={`${a.companyName} goedkeuren`}
                      >
                        Goedkeuren
                      </Button>
                      <Button
                        variant="outline"
                        onClick={() => setRejecting(a)}
                        disabled={decision.isPending}
                        aria-label={`${a.companyName} afwijzen`}
                      >
                        Afwijzen
                      </Button>
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <Dialog
        open={rejecting !== null}
        onOpenChange={(open) => !open && setRejecting(null)}
        title="Aanvraag afwijzen"
        description={
          rejecting
            ? `De aanvrager van ${rejecting.companyName} krijgt een e-mail met de reden die je hier geeft.`
            : undefined
        }
      >
        {rejecting && (
          <Form
            schema={rejectApplicationSchema}
            defaultValues={{ reason: '' }}
            aria-label="Aanvraag afwijzen"
            className="grid gap-4 px-6 pb-6 sm:px-8 sm:pb-8"
            onSubmit={async ({ reason }) => {
              await decision.mutateAsync({ id: rejecting.id, reason });
              toast.success(
                `De aanvraag van ${rejecting.companyName} is afgewezen`,
                'De aanvrager krijgt een e-mail.',
              );
              setRejecting(null);
            }}
          >
            {() => (
              <>
                <TextareaField name="reason" label="Reden" required rows={4} />
                <FormError />
                <SubmitButton>Afwijzen</SubmitButton>
              </>
            )}
          </Form>
        )}
      </Dialog>
    </section>
  );
}

function Companies() {
  const companies = useCompanies(true);
  const state = useCompanyState();
  const change = async (id: string, name: string, suspend: boolean) => {
    try {
      await state.mutateAsync({ id, suspend });
      toast.success(suspend ? `${name} is geschorst` : `${name} is weer actief`);
    } catch (error) {
      toast.error('Dat is niet gelukt', error instanceof Error ? error.message : undefined);
    }
  };
  return (
    <section aria-labelledby="bedrijven-titel" className="mt-14">
      <h2 id="bedrijven-titel" className="text-2xl font-semibold">
        Bedrijven
      </h2>
      <QueryState
        query={companies}
        skeleton={<PageSpinner />}
        error="De bedrijven konden niet worden geladen."
      >
        {(data) =>
          data.items.length === 0 ? (
            <p className="mt-4 text-muted">Er zijn nog geen goedgekeurde bedrijven.</p>
          ) : (
            <div className="mt-4 overflow-x-auto rounded-2xl border border-border bg-card">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Goedgekeurde bedrijven met hun status</caption>
                <thead className="border-b border-border text-muted">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-medium">
                      Bedrijf
                    </th>
                    <th scope="col" className="px-4 py-3 font-medium">
                      Soort
                    </th>
                    <th scope="col" className="px-4 py-3 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-3 font-medium">
                      Gebruikers
                    </th>
                    <th scope="col" className="px-4 py-3 font-medium">
                      <span className="sr-only">Actie</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((c) => (
                    <tr key={c.id} className="border-b border-border last:border-0">
                      <th scope="row" className="px-4 py-3 font-medium">
                        {c.name}
                        <span className="block text-xs font-normal text-muted">{c.email}</span>
                      </th>
                      <td className="px-4 py-3">{companyTypeLabels[c.companyType]}</td>
                      <td className="px-4 py-3">{companyStateLabels[c.state]}</td>
                      <td className="px-4 py-3">{c.users}</td>
                      <td className="px-4 py-3 text-right">
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={state.isPending}
                          onClick={() => void change(c.id, c.name, c.state === 'active')}
                          aria-label={`${c.name} ${c.state === 'active' ? 'schorsen' : 'weer actief maken'}`}
                        >
                          {c.state === 'active' ? 'Schorsen' : 'Weer actief maken'}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}

function TeamMembers() {
  const members = useTeamMembers();
  const grant = useGrantTeam();
  const revoke = useRevokeTeam();
  const remove = async (email: string) => {
    try {
      await revoke.mutateAsync(email);
      toast.success(`${email} hoort niet meer bij het team`);
    } catch (error) {
      toast.error('Dat is niet gelukt', error instanceof Error ? error.message : undefined);
    }
  };
  return (
    <section aria-labelledby="team-titel" className="mt-14">
      <h2 id="team-titel" className="text-2xl font-semibold">
        Team
      </h2>
      <p className="mt-2 text-muted">
        Wie je toevoegt, krijgt de rechten van het team zodra die persoon het e-mailadres heeft bevestigd. De
        adressen uit de configuratie (ADMIN_EMAILS) kunnen hier niet weg.
      </p>
      <QueryState query={members} skeleton={<PageSpinner />} error="Het team kon niet worden geladen.">
        {(data) => (
          <ul className="mt-4 grid max-w-2xl gap-2">
            {data.items.map((m) => (
              <li
                key={m.email}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-card px-4 py-3"
              >
                <span className="break-all">
                  {m.email}
                  {m.source === 'config' && <span className="ml-2 text-sm text-muted">(configuratie)</span>}
                </span>
                {m.source === 'granted' && (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={revoke.isPending}
                    onClick={() => void remove(m.email)}
                    aria-label={`${m.email} uit het team halen`}
                  >
                    Uit het team halen
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <Form
        schema={grantTeamSchema}
        defaultValues={{ email: '' }}
        aria-labelledby="team-titel"
        className="mt-6 grid max-w-2xl gap-4"
        onSubmit={async ({ email }, form) => {
          await grant.mutateAsync(email);
          toast.success(`${email} is aan het team toegevoegd`);
          form.reset({ email: '' });
        }}
      >
        {() => (
          <>
            <TextField name="email" label="E-mailadres van het nieuwe teamlid" type="email" required />
            <FormError />
            <div>
              <SubmitButton>Toevoegen aan het team</SubmitButton>
            </div>
          </>
        )}
      </Form>
    </section>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}
