import { useState } from 'react';
import * as z from 'zod/mini';
import {
  routes,
  takedownHideSchema,
  takedownReasonLabels,
  teamHandOverSchema,
  type TakedownItem,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextField, TextareaField } from '../../components/form/form.tsx';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { formatDate } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { useHandOver, useTeamHide, useTeamReports } from './team-reports-api.ts';

const kindLabel = (i: TakedownItem) => (i.itemType === 'memory' ? 'Herinnering' : 'Foto of video');

/** 'Meldingen': what visitors reported, with the reasons; the team hides an item at once, or shows it again. */
export function TeamReports() {
  const reports = useTeamReports();
  const hide = useTeamHide();
  const [hiding, setHiding] = useState<TakedownItem | null>(null);

  const unhide = async (item: TakedownItem) => {
    try {
      await hide.mutateAsync({ itemType: item.itemType, itemId: item.itemId });
      toast.success('Het onderdeel is weer zichtbaar');
    } catch (error) {
      toast.error('Terugzetten is niet gelukt', error instanceof Error ? error.message : undefined);
    }
  };

  return (
    <section aria-labelledby="meldingen-titel" className="mt-14">
      <h2 id="meldingen-titel" className="text-2xl font-semibold">
        Meldingen
      </h2>
      <p className="mt-2 text-muted">
        Herinneringen en foto’s die bezoekers hebben gemeld. Verbergen gaat meteen: alleen de eigenaren van de
        pagina zien het dan nog, met je reden.
      </p>
      <QueryState query={reports} skeleton={<PageSpinner />} error="De meldingen konden niet worden geladen.">
        {(data) =>
          data.items.length === 0 ? (
            <p className="mt-4 text-muted">Er zijn geen meldingen.</p>
          ) : (
            <ul className="mt-4 grid gap-5">
              {data.items.map((item) => {
                const open = item.reports.filter((r) => r.status === 'open').length;
                const title = `${kindLabel(item)} op de pagina van ${item.memorialName}`;
                return (
                  <li key={item.itemId}>
                    <article
                      aria-labelledby={`melding-${item.itemId}`}
                      className="rounded-2xl border border-border bg-card p-6 shadow-soft"
                    >
                      <div className="flex flex-wrap items-baseline justify-between gap-3">
                        <h3 id={`melding-${item.itemId}`} className="text-xl font-semibold">
                          {title}
                        </h3>
                        <p className="text-sm font-medium text-muted">
                          {item.hidden
                            ? `Verborgen door ${item.hidden.by === 'team' ? 'het team' : 'een eigenaar'}`
                            : open > 0
                              ? `${open} open ${open === 1 ? 'melding' : 'meldingen'}`
                              : 'Afgehandeld'}
                        </p>
                      </div>
                      <blockquote className="mt-3 border-l-2 border-border pl-4 whitespace-pre-line text-muted">
                        {item.preview}
                      </blockquote>
                      <ul className="mt-4 grid gap-2 text-sm">
                        {item.reports.map((r) => (
                          <li key={r.id}>
                            <span className="font-medium">{takedownReasonLabels[r.reason]}</span>
                            <span className="text-muted"> · {formatDate(r.createdAt)}</span>
                            {r.details && <p className="mt-0.5 whitespace-pre-line">{r.details}</p>}
                          </li>
                        ))}
                      </ul>
                      {item.hidden && (
                        <p className="mt-4 text-sm">
                          <span className="font-medium">Reden van verbergen:</span> {item.hidden.reason}
                        </p>
                      )}
                      <div className="mt-5 flex flex-wrap gap-3">
                        <Link to={routes.memorial(item.memorialId)} className={buttonClass('outline', 'md')}>
                          Pagina bekijken
                        </Link>
                        {item.hidden ? (
                          <Button
                            variant="outline"
                            onClick={() => void unhide(item)}
                            disabled={hide.isPending}
                            aria-label={`${title} weer tonen`}
                          >
                            Weer tonen
                          </Button>
                        ) : (
                          <Button
                            onClick={() => setHiding(item)}
                            disabled={hide.isPending}
                            aria-label={`${title} verbergen`}
                          >
                            Verbergen
                          </Button>
                        )}
                      </div>
                    </article>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
      <Dialog
        open={hiding !== null}
        onOpenChange={(open) => !open && setHiding(null)}
        title="Onderdeel verbergen"
        description="Bezoekers en leden zien het niet meer. De eigenaren krijgen een e-mail met de reden die je hier geeft."
      >
        {hiding && (
          <Form
            schema={takedownHideSchema}
            defaultValues={{ reason: '' }}
            aria-label="Onderdeel verbergen"
            className="grid gap-4 px-6 pb-6 sm:px-8 sm:pb-8"
            onSubmit={async ({ reason }) => {
              await hide.mutateAsync({ itemType: hiding.itemType, itemId: hiding.itemId, reason });
              toast.success('Het onderdeel is verborgen', 'De eigenaren krijgen een e-mail.');
              setHiding(null);
            }}
          >
            {() => (
              <>
                <TextareaField name="reason" label="Reden" required rows={4} />
                <FormError />
                <SubmitButton>Verbergen</SubmitButton>
              </>
            )}
          </Form>
        )}
      </Dialog>
    </section>
  );
}

const handOverSchema = z.extend(teamHandOverSchema, {
  memorialId: z
    .string({ error: 'Gedenkpagina is verplicht' })
    .check(
      z.trim(),
      z.regex(
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i,
        'Plak het adres of nummer van de pagina',
      ),
    ),
});

/** The team gives a page to a family member on request: an account becomes owner, or the address is invited. */
export function TeamHandOver() {
  const handOver = useHandOver();
  return (
    <section aria-labelledby="overdragen-titel" className="mt-14">
      <h2 id="overdragen-titel" className="text-2xl font-semibold">
        Pagina overdragen
      </h2>
      <p className="mt-2 max-w-2xl text-muted">
        Op verzoek van de familie, bijvoorbeeld als de beheerder is overleden. Heeft het adres een bevestigd
        account, dan wordt die persoon meteen eigenaar; anders krijgt het adres een uitnodiging. De reden komt
        in het logboek van de pagina.
      </p>
      <Form
        schema={handOverSchema}
        defaultValues={{ memorialId: '', email: '', reason: '' }}
        aria-labelledby="overdragen-titel"
        className="mt-6 grid max-w-xl gap-4"
        onSubmit={async ({ memorialId, email, reason }, form) => {
          const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(memorialId)![0];
          const result = await handOver.mutateAsync({ memorialId: id, email, reason });
          toast.success(
            result.outcome === 'owner' ? `${email} is nu eigenaar` : `${email} is uitgenodigd als eigenaar`,
          );
          form.reset();
        }}
      >
        {() => (
          <>
            <TextField name="memorialId" label="Gedenkpagina (adres of nummer)" required />
            <TextField name="email" label="E-mailadres van het familielid" type="email" required />
            <TextareaField name="reason" label="Reden" required rows={3} />
            <FormError />
            <SubmitButton className="justify-self-start">Overdragen</SubmitButton>
          </>
        )}
      </Form>
    </section>
  );
}
