import { useState } from 'react';
import * as z from 'zod/mini';
import { Search } from 'lucide-react';
import {
  paymentPurposeLabels,
  planIds,
  plans,
  teamPlanSetSchema,
  teamRefundSchema,
  type Payment,
  type TeamMemorialPlan,
} from '@aandenken/contract';
import {
  Form,
  FormError,
  SelectField,
  SubmitButton,
  TextField,
  TextareaField,
} from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { InvoiceLink } from '../../components/plans/payment-list.tsx';
import { paymentStatusLabels, planSummary } from '../../components/plans/plan-text.ts';
import { formatDate, formatEuro } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import {
  useTeamMemorialPlan,
  useTeamMemorialSearch,
  useTeamRefund,
  useTeamSetPlan,
} from './team-plans-api.ts';

const searchSchema = z.object({
  q: z.string().check(z.trim(), z.minLength(1, 'Vul een naam, adres of nummer in'), z.maxLength(200)),
});
const setSchema = z.object({
  plan: z.enum(planIds, 'Kies een abonnement'),
  paidUntil: z.string(),
  reason: teamPlanSetSchema.shape.reason,
});
const euro = (p: Payment) => formatEuro(p.amountCents / 100);

/**
 * 'Abonnementen en betalingen': the team finds a page (name, address or number), sees its plan, trial,
 * payments and invoices, sets the plan by hand (with a reason, in the page's log) and refunds a payment
 * (with a reason; Mollie refunds, a credit invoice is made and mailed).
 */
export function TeamPlans() {
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const results = useTeamMemorialSearch(q);
  return (
    <section aria-labelledby="abonnementen-titel" className="mt-14">
      <h2 id="abonnementen-titel" className="text-2xl font-semibold">
        Abonnementen en betalingen
      </h2>
      <p className="mt-2 max-w-2xl text-muted">
        Zoek een gedenkpagina om het abonnement, de proefperiode, de betalingen en de facturen te zien. Stel
        het abonnement met de hand in (bijvoorbeeld als online betalen uitstaat) of stort een betaling terug.
      </p>
      <Form
        schema={searchSchema}
        defaultValues={{ q: '' }}
        aria-label="Gedenkpagina zoeken"
        className="mt-6 flex max-w-xl flex-wrap items-end gap-3"
        onSubmit={({ q }) => {
          setQ(q);
          setSelected(null);
        }}
      >
        {() => (
          <>
            <TextField name="q" label="Naam, adres of nummer van de pagina" className="min-w-64 flex-1" />
            <SubmitButton icon={<Search aria-hidden className="h-4 w-4" />}>Zoeken</SubmitButton>
          </>
        )}
      </Form>
      {q && (
        <div aria-live="polite" className="mt-4">
          <QueryState query={results} skeleton={<PageSpinner />} error="Zoeken is niet gelukt.">
            {(data) =>
              data.items.length === 0 ? (
                <p className="text-muted">Geen pagina gevonden.</p>
              ) : (
                <ul aria-label="Gevonden pagina’s" className="grid max-w-2xl gap-2">
                  {data.items.map((m) => (
                    <li key={m.id}>
                      <Button
                        variant={selected === m.id ? 'primary' : 'outline'}
                        aria-pressed={selected === m.id}
                        className="w-full justify-between"
                        onClick={() => setSelected(m.id)}
                      >
                        <span>{m.name}</span>
                        <span className="text-sm">
                          {plans[m.plan].title}
                          {m.paidByCompany ? ', door bedrijf' : ''}
                        </span>
                      </Button>
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>
        </div>
      )}
      {selected && <PlanDetail id={selected} />}
    </section>
  );
}

function PlanDetail({ id }: { id: string }) {
  const plan = useTeamMemorialPlan(id);
  return (
    <div className="mt-6 max-w-3xl">
      <QueryState query={plan} skeleton={<PageSpinner />} error="Het abonnement kon niet worden geladen.">
        {(p) => (
          <article
            aria-labelledby={`abonnement-${id}`}
            className="rounded-2xl border border-border bg-card p-6 shadow-soft"
          >
            <h3 id={`abonnement-${id}`} className="text-xl font-semibold">
              {p.memorialName}
            </h3>
            <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-muted">Abonnement</dt>
                <dd className="font-medium" data-testid="team-plan-summary">
                  {planSummary(p)}
                </dd>
              </div>
              <div>
                <dt className="text-muted">Stand</dt>
                <dd>{p.state === 'read_only' ? 'Alleen te lezen' : 'Te gebruiken'}</dd>
              </div>
              <div>
                <dt className="text-muted">Proefperiode begonnen</dt>
                <dd>{formatDate(p.trialStartedAt)}</dd>
              </div>
              <div>
                <dt className="text-muted">Pagina-nummer</dt>
                <dd className="break-all">{p.memorialId}</dd>
              </div>
            </dl>
            <Payments plan={p} />
            <SetPlan plan={p} />
          </article>
        )}
      </QueryState>
    </div>
  );
}

function Payments({ plan }: { plan: TeamMemorialPlan }) {
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const refund = useTeamRefund(plan.memorialId);
  return (
    <>
      <h4 className="mt-6 font-semibold">Betalingen en facturen</h4>
      {plan.payments.length === 0 ? (
        <p className="mt-2 text-sm text-muted">Er is nog niets betaald voor deze pagina.</p>
      ) : (
        <ul className="mt-2 divide-y divide-border" aria-label="Betalingen">
          {plan.payments.map((pay) => (
            <li key={pay.id} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
              <span>
                {paymentPurposeLabels[pay.plan]} · {euro(pay)} · {formatDate(pay.createdAt)} ·{' '}
                <span className="font-medium">
                  {pay.refundedAt ? 'Teruggestort' : (paymentStatusLabels[pay.status] ?? pay.status)}
                </span>
              </span>
              <span className="flex flex-wrap items-center gap-3">
                {pay.invoice && <InvoiceLink invoice={pay.invoice} />}
                {pay.creditInvoice && <InvoiceLink invoice={pay.creditInvoice} credit />}
                {pay.status === 'paid' && !pay.refundedAt && (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Betaling van ${euro(pay)} van ${formatDate(pay.createdAt)} terugstorten`}
                    onClick={() => setRefunding(pay)}
                  >
                    Terugstorten
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={refunding !== null}
        onOpenChange={(open) => !open && setRefunding(null)}
        title="Betaling terugstorten"
        description={
          refunding
            ? `Het hele bedrag (${euro(refunding)}) gaat via Mollie terug. Er komt een creditfactuur, de betaler krijgt die per e-mail, en wat de betaling kocht wordt teruggenomen. De reden komt in het logboek.`
            : undefined
        }
      >
        {refunding && (
          <Form
            schema={teamRefundSchema}
            defaultValues={{ reason: '' }}
            aria-label="Betaling terugstorten"
            className="grid gap-4 px-6 pb-6 sm:px-8 sm:pb-8"
            onSubmit={async ({ reason }) => {
              const done = await refund.mutateAsync({ paymentId: refunding.id, reason });
              toast.success(
                'De betaling is teruggestort',
                done.creditInvoice ? `Creditfactuur ${done.creditInvoice.number}.` : undefined,
              );
              setRefunding(null);
            }}
          >
            {() => (
              <>
                <TextareaField name="reason" label="Reden" required rows={3} />
                <FormError />
                <SubmitButton className="justify-self-start">Terugstorten</SubmitButton>
              </>
            )}
          </Form>
        )}
      </Dialog>
    </>
  );
}

function SetPlan({ plan }: { plan: TeamMemorialPlan }) {
  const set = useTeamSetPlan(plan.memorialId);
  return (
    <>
      <h4 className="mt-6 font-semibold">Abonnement met de hand instellen</h4>
      <Form
        schema={setSchema}
        defaultValues={{ plan: plan.plan, paidUntil: '', reason: '' }}
        aria-label="Abonnement met de hand instellen"
        className="mt-3 grid gap-4 sm:grid-cols-2"
        onSubmit={async ({ plan: chosen, paidUntil, reason }, form) => {
          await set.mutateAsync({
            plan: chosen,
            reason,
            ...(chosen === 'basis' && paidUntil ? { paidUntil: new Date(paidUntil).toISOString() } : {}),
          });
          toast.success(`Het abonnement is nu ${plans[chosen].title}`);
          form.reset({ plan: chosen, paidUntil: '', reason: '' });
        }}
      >
        {() => (
          <>
            <SelectField
              name="plan"
              label="Abonnement"
              required
              placeholder="Kies een abonnement"
              options={planIds.map((id) => ({ value: id, label: plans[id].title }))}
            />
            <TextField
              name="paidUntil"
              type="date"
              label="Basis betaald tot"
              hint="Alleen voor Basis; leeg is een jaar vanaf vandaag."
            />
            <TextareaField name="reason" label="Reden" required rows={2} className="sm:col-span-2" />
            <FormError className="sm:col-span-2" />
            <SubmitButton className="justify-self-start">Instellen</SubmitButton>
          </>
        )}
      </Form>
    </>
  );
}
