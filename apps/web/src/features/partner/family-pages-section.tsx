import * as z from 'zod/mini';
import { Link } from 'react-router';
import { FilePlus2, Send, Settings2 } from 'lucide-react';
import {
  carePageCreateSchema,
  careStateLabels,
  formatEuro,
  memorialStatusLabels,
  plans,
  routes,
  type AccountRoles,
  type CarePage,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextField } from '../../components/form/form.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { useCarePages, useCreateCarePage, useResendCarePage } from './api/partner.ts';

type Company = AccountRoles['companies'][number];
// zod/mini has no .unwrap(): the optional's inner schema is its def.innerType. An empty date is unknown.
const shape = carePageCreateSchema.shape;
const emptyToNull = (v: unknown) => (v === '' ? null : v);
const formSchema = z
  .object({
    firstName: shape.firstName,
    lastName: shape.lastName,
    birthDate: z.pipe(z.transform(emptyToNull), shape.birthDate.def.innerType),
    deathDate: z.pipe(z.transform(emptyToNull), shape.deathDate.def.innerType),
    familyEmail: shape.familyEmail,
  })
  .check(
    z.refine((v) => !(v.birthDate && v.deathDate && v.birthDate > v.deathDate), {
      message: 'Overlijdensdatum ligt voor de geboortedatum',
      path: ['deathDate'],
    }),
  );
const emptyForm = { firstName: '', lastName: '', birthDate: '', deathDate: '', familyEmail: '' };
const errorOf = (e: unknown) => (e instanceof Error ? e.message : undefined);

/**
 * Pagina's voor families: a new page (the deceased's names and dates, the family's e-mail address; the
 * family is mailed an invitation to take it over), and the list of the company's pages with their state
 * and counters.
 */
export function FamilyPagesSection({ company }: { company: Company }) {
  const create = useCreateCarePage(company.id);
  const headingId = `familiepaginas-${company.id}`;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6">
      <h3 id={headingId} className="text-xl font-semibold">
        Pagina’s voor families
      </h3>
      <p className="mt-1 text-sm text-muted">
        Maak een gedenkpagina voor een familie. De familie krijgt een e-mail om de pagina over te nemen; tot
        beheer jij de pagina. Daarna beslist de familie of je mag blijven meebeheren.
      </p>

      <Form
        schema={formSchema}
        defaultValues={emptyForm}
        aria-label="Nieuwe pagina voor een familie"
        className="mt-5 grid gap-4 sm:grid-cols-2"
        onSubmit={async (values, form) => {
          const page = await create.mutateAsync(values);
          toast.success(
            'Pagina gemaakt',
            `De familie krijgt een e-mail op ${page.familyEmail} om de pagina over te nemen.`,
          );
          form.reset(emptyForm);
        }}
      >
        {() => (
          <>
            <TextField name="firstName" label="Voornaam van de overledene" required autoComplete="off" />
            <TextField name="lastName" label="Achternaam van de overledene" required autoComplete="off" />
            <TextField name="birthDate" type="date" label="Geboortedatum" max={today} min="1800-01-01" />
            <TextField name="deathDate" type="date" label="Overlijdensdatum" max={today} min="1800-01-01" />
            <TextField
              name="familyEmail"
              type="email"
              label="E-mailadres van de familie"
              hint="Hierheen sturen we de uitnodiging om de pagina over te nemen."
              required
              autoComplete="off"
              className="sm:col-span-2"
            />
            <FormError className="sm:col-span-2" />
            <div className="sm:col-span-2">
              <SubmitButton icon={<FilePlus2 aria-hidden className="h-4 w-4" />}>
                Pagina maken en familie uitnodigen
              </SubmitButton>
            </div>
          </>
        )}
      </Form>

      <h4 className="mt-8 font-semibold">Gemaakte pagina’s</h4>
      <CarePagesList companyId={company.id} />
    </section>
  );
}

function CarePagesList({ companyId }: { companyId: string }) {
  const pages = useCarePages(companyId);
  return (
    <QueryState
      query={pages}
      skeleton={<Skeleton className="mt-3 h-24 w-full rounded-xl" />}
      error="De pagina’s konden niet worden geladen."
    >
      {(data) =>
        data.items.length === 0 ? (
          <p className="mt-2 text-muted">Je hebt nog geen pagina’s voor families gemaakt.</p>
        ) : (
          <>
            <CompanyOwes pages={data.items.filter((p) => p.paidByCompany && !p.settledByCompany).length} />
            <ul className="mt-3 grid gap-3" aria-label="Pagina’s voor families">
              {data.items.map((p) => (
                <CarePageRow key={p.memorialId} companyId={companyId} page={p} />
              ))}
            </ul>
          </>
        )
      }
    </QueryState>
  );
}

/**
 * What the company still owes for the pages it made: Premium, once, per page, at the plans'
 * price; paid under 'Betalingen'.
 */
function CompanyOwes({ pages }: { pages: number }) {
  if (pages === 0) return null;
  const price = plans.premium.priceCents;
  return (
    <p className="mt-3 rounded-xl bg-secondary px-4 py-3 text-sm">
      Op rekening van je bedrijf: {pages} {pages === 1 ? 'pagina' : 'pagina’s'} met Premium (eenmalig{' '}
      {formatEuro(price)} per pagina), samen <strong>{formatEuro(price * pages)}</strong>, te betalen onder
      Betalingen. De families zien geen betaalscherm.
    </p>
  );
}

function CarePageRow({ companyId, page: p }: { companyId: string; page: CarePage }) {
  const resend = useResendCarePage(companyId);
  const name = `${p.firstName} ${p.lastName}`;
  return (
    <li className="rounded-xl border border-border p-4" aria-label={name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold">{name}</p>
          <p className="text-sm text-muted">
            {memorialStatusLabels[p.status]} · gemaakt op {formatDate(p.createdAt)}
          </p>
        </div>
        <span className="rounded-full bg-secondary px-3 py-1 text-sm">{careStateLabels[p.state]}</span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <div>
          <dt className="text-muted">Abonnement</dt>
          <dd>
            {p.paidByCompany
              ? p.settledByCompany
                ? 'Premium, betaald door je bedrijf'
                : 'Premium, op rekening van je bedrijf'
              : 'Door de familie'}
          </dd>
        </div>
        <div>
          <dt className="text-muted">Meebeheren</dt>
          <dd>{p.partnerRole ? 'Ja' : 'Nee'}</dd>
        </div>
        <div>
          <dt className="text-muted">Bezoekers</dt>
          <dd>{formatNumber(p.counts.visitors)}</dd>
        </div>
        <div>
          <dt className="text-muted">Herinneringen</dt>
          <dd>{formatNumber(p.counts.memories)}</dd>
        </div>
        <div>
          <dt className="text-muted">Kaarsjes</dt>
          <dd>{formatNumber(p.counts.candles)}</dd>
        </div>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        {p.partnerRole && (
          <Link
            to={routes.memorialManage(p.memorialId)}
            className={buttonClass('outline', 'sm')}
            aria-label={`${name} beheren`}
          >
            <Settings2 aria-hidden className="h-4 w-4" />
            Beheren
          </Link>
        )}
        {p.state === 'waiting' && (
          <Button
            variant="outline"
            size="sm"
            disabled={resend.isPending}
            aria-label={`Uitnodiging aan de familie van ${name} opnieuw versturen`}
            onClick={() =>
              resend.mutate(p.memorialId, {
                onSuccess: () => toast.success('Uitnodiging opnieuw verstuurd', `Naar ${p.familyEmail}.`),
                onError: (e) => toast.error('Versturen lukte niet', errorOf(e)),
              })
            }
          >
            <Send aria-hidden className="h-4 w-4" />
            Opnieuw versturen
          </Button>
        )}
      </div>
      {p.state === 'waiting' && (
        <p className="mt-2 text-sm text-muted">Uitnodiging gestuurd naar {p.familyEmail}.</p>
      )}
    </li>
  );
}
