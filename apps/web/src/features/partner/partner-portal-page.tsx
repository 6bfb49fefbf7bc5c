import { useRef, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { routes, type AccountRoles } from '@aandenken/contract';
import { Container } from '../../components/ui/container.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { useAccountRoles } from '../../lib/account/roles.ts';
import { cn } from '../../lib/cn.ts';
import { portalSections } from './portal-sections.tsx';

/**
 * /partner: the partner portal, and where the approval mail leads (with `login_hint`, the applicant's address). Signed out, it
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
            Is je partneraanvraag goedgekeurd? Log in of maak een account aan met het e-mailadres waarop je de
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
        <QueryState query={roles} skeleton={<PageSpinner />} error="Je gegevens konden niet worden geladen.">
          {(data) =>
            data.companies.length === 0 ? (
              <div className="mt-6 max-w-2xl rounded-2xl border border-border bg-card p-6">
                <p>Er is (nog) geen bedrijf aan je account gekoppeld.</p>
                <p className="mt-2 text-muted">
                  Is je aanvraag goedgekeurd? Bevestig dan eerst je e-mailadres met de link in de e-mail die
                  je kreeg toen je je account aanmaakte, en open deze pagina daarna opnieuw. Gebruik hetzelfde
                  e-mailadres als in je aanvraag.
                </p>
              </div>
            ) : (
              <Portal companies={data.companies} />
            )
          }
        </QueryState>
      )}
    </Container>
  );
}

type Company = AccountRoles['companies'][number];

/**
 * The portal for one company (`?bedrijf=` when the user has more than one): its sections as tabs
 * (`?tab=`, portal-sections.tsx). A suspended company's users see why they can do nothing.
 */
function Portal({ companies }: { companies: Company[] }) {
  const [params, setParams] = useSearchParams();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const company = companies.find((c) => c.id === params.get('bedrijf')) ?? companies[0]!;
  const index = Math.max(
    0,
    portalSections.findIndex((s) => s.id === params.get('tab')),
  );
  const section = portalSections[index]!;
  const select = (i: number, focus = false) => {
    const next = new URLSearchParams(params);
    next.set('tab', portalSections[i]!.id);
    setParams(next, { replace: true });
    if (focus) tabs.current[i]?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const n = portalSections.length;
    const to =
      e.key === 'ArrowRight'
        ? (index + 1) % n
        : e.key === 'ArrowLeft'
          ? (index - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    select(to, true);
  };

  return (
    <div className="mt-6">
      {companies.length > 1 && (
        <nav aria-label="Je bedrijven" className="mb-6 flex flex-wrap gap-2">
          {companies.map((c) => (
            <Link
              key={c.id}
              to={`${routes.partnerPortal}?bedrijf=${c.id}`}
              aria-current={c.id === company.id ? 'page' : undefined}
              className={cn(
                'rounded-full border border-border px-4 py-1.5 text-sm',
                c.id === company.id && 'bg-secondary font-semibold',
              )}
            >
              {c.name}
            </Link>
          ))}
        </nav>
      )}
      <h2 className="text-2xl font-semibold">{company.name}</h2>
      {company.state !== 'active' ? (
        <p role="status" className="mt-4 max-w-2xl rounded-2xl border border-border bg-card p-6">
          Je bedrijf is tijdelijk geschorst door het team van Aandenken. Zolang de schorsing duurt, kun je je
          profiel en pagina’s niet beheren. Neem contact met ons op als je vragen hebt.
        </p>
      ) : (
        <>
          <p className="mt-1 text-muted">
            Je bedrijf is goedgekeurd.{company.isAdmin ? ' Jij bent de beheerder van dit bedrijf.' : ''}{' '}
            <Link to={routes.companyPage(company.slug)} className="underline underline-offset-2">
              Bekijk je openbare pagina
            </Link>
          </p>
          <div
            role="tablist"
            aria-label="Partnerportaal"
            onKeyDown={onKey}
            className="mt-6 flex gap-1 overflow-x-auto border-b border-border"
          >
            {portalSections.map((s, i) => (
              <button
                key={s.id}
                ref={(el) => {
                  tabs.current[i] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${s.id}`}
                aria-selected={i === index}
                aria-controls={`paneel-${s.id}`}
                tabIndex={i === index ? 0 : -1}
                onClick={() => select(i)}
                className={cn(
                  '-mb-px rounded-t-lg border-b-2 px-4 py-2.5 font-medium whitespace-nowrap',
                  i === index
                    ? 'border-primary text-foreground'
                    : 'border-transparent text-muted hover:text-foreground',
                )}
              >
                {s.label}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`paneel-${section.id}`}
            aria-labelledby={`tab-${section.id}`}
            className="pt-8"
          >
            <section.Component key={company.id} company={company} />
          </div>
        </>
      )}
    </div>
  );
}
