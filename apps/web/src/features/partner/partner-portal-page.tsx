import { useSearchParams } from 'react-router';
import { routes } from '@aandenken/contract';
import { Container } from '../../components/ui/container.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { useAccountRoles } from '../../lib/account/roles.ts';
import { ColleaguesSection } from './colleagues-section.tsx';
import { FamilyPagesSection } from './family-pages-section.tsx';

/**
 * /partner: where the approval mail leads (with `login_hint`, the applicant's address). Signed out, it
 * offers to sign in or register with that address; signed in, it shows the user's companies. The first
 * visit with the verified address links the account to the company (GET /core/account/roles).
 */
export default function PartnerPortalPage() {
  const auth = useAuth();
  const [params] = useSearchParams();
  const loginHint = params.get('login_hint') ?? undefined;
  const signedIn = auth.status === 'authenticated';
  const roles = useAccountRoles(signedIn);
  const returnUrl = routes.partnerPortal;

  return (
    <Container className="py-12 sm:py-16">
      <title>Partner · Aandenken</title>
      <h1 className="text-3xl font-semibold sm:text-4xl">Partner</h1>
      {auth.status === 'loading' ? (
        <PageSpinner />
      ) : !signedIn ? (
        <div className="mt-6 max-w-2xl rounded-2xl border border-border bg-card p-6">
          <p>
            Is uw partneraanvraag goedgekeurd? Log in of maak een account aan met het e-mailadres waarop u de
            goedkeuring ontving{loginHint ? ` (${loginHint})` : ''}.
          </p>
          <div className="mt-5 flex flex-wrap gap-3">
            <Button onClick={() => void auth.signIn({ returnUrl, loginHint })}>Inloggen</Button>
            <Button variant="outline" onClick={() => void auth.register({ returnUrl, loginHint })}>
              Account aanmaken
            </Button>
          </div>
        </div>
      ) : (
        <QueryState query={roles} skeleton={<PageSpinner />} error="Uw gegevens konden niet worden geladen.">
          {(data) =>
            data.companies.length === 0 ? (
              <div className="mt-6 max-w-2xl rounded-2xl border border-border bg-card p-6">
                <p>Er is (nog) geen bedrijf aan uw account gekoppeld.</p>
                <p className="mt-2 text-muted">
                  Is uw aanvraag goedgekeurd? Bevestig dan eerst uw e-mailadres met de link in de e-mail die u
                  kreeg toen u uw account aanmaakte, en log daarna opnieuw in met hetzelfde e-mailadres als in
                  uw aanvraag.
                </p>
              </div>
            ) : (
              <ul className="mt-6 grid max-w-3xl gap-5">
                {data.companies.map((c) => (
                  <li key={c.id} className="rounded-2xl border border-border bg-card p-6 shadow-soft">
                    <h2 className="text-2xl font-semibold">{c.name}</h2>
                    {c.state === 'active' ? (
                      <>
                        <p className="mt-2">
                          Uw bedrijf is goedgekeurd.{c.isAdmin ? ' U bent de beheerder van dit bedrijf.' : ''}
                        </p>
                        <div className="mt-6 grid gap-5">
                          <FamilyPagesSection company={c} />
                          <ColleaguesSection company={c} />
                        </div>
                      </>
                    ) : (
                      <p className="mt-2">
                        Uw bedrijf is tijdelijk geschorst. Neem contact met ons op als u vragen hebt.
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      )}
    </Container>
  );
}
