import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ClipboardCheck, FileText, HeartHandshake, MailCheck, Settings2 } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../components/ui/button.tsx';
import { Container, Eyebrow } from '../../components/ui/container.tsx';
import { Picture } from '../../components/ui/picture.tsx';
import { claims } from '../../content/company.ts';
import { images } from '../../content/images.ts';
import { formatEuro } from '../../lib/format.ts';
import { PartnerForm } from './partner-form.tsx';

const steps = [
  {
    Icon: FileText,
    title: 'Vraag het partnerschap aan',
    text: 'Vul het formulier hieronder in met de gegevens van je onderneming. Het kost een paar minuten.',
  },
  {
    Icon: ClipboardCheck,
    title: 'Wij beoordelen je aanvraag',
    text: `Ons team bekijkt je aanvraag en neemt binnen ${claims.approvalHours} uur contact met je op.`,
  },
  {
    Icon: Settings2,
    title: 'Richt je profiel in',
    text: 'Na goedkeuring stel je je profiel, prijzen en werkgebied in en maak je gedenkpagina’s voor families.',
  },
];

/** /bedrijf: the partner landing page with the application form. */
export default function PartnerPage() {
  const [submittedCompany, setSubmittedCompany] = useState<string | null>(null);

  return (
    <>
      <title>Partner worden · Aandenken</title>
      <section className="relative overflow-hidden border-b border-border">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_28rem_at_85%_0%,color-mix(in_srgb,var(--primary)_16%,transparent),transparent)]"
        />
        <Container className="relative py-16 sm:py-24">
          <div className="grid items-center gap-12 lg:grid-cols-[1.5fr_1fr]">
            <div className="max-w-3xl">
              <Eyebrow>Voor uitvaartondernemers en dienstverleners</Eyebrow>
              <h1 className="mt-4 text-4xl leading-tight font-semibold sm:text-5xl">
                Word partner van Aandenken
              </h1>
              <p className="mt-6 max-w-2xl text-lg leading-relaxed text-muted">
                Bied de families die je begeleidt een blijvende, persoonlijke plek om te herdenken. Jij maakt
                de gedenkpagina, wij zorgen voor techniek, veiligheid en ondersteuning.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <a href="#aanvraag" className={buttonClass('primary', 'lg')}>
                  Direct aanvragen
                </a>
                <Link to={routes.contact} className={buttonClass('outline', 'lg')}>
                  Eerst een vraag stellen
                </Link>
                <Link to={routes.companyDirectory} className={buttonClass('ghost', 'lg')}>
                  Bekijk onze partners
                </Link>
              </div>
            </div>
            <div
              aria-hidden
              className="hidden rotate-2 rounded-3xl border border-border bg-card p-3 shadow-lift lg:block"
            >
              <Picture
                image={images.bouquet}
                sizes="400px"
                priority
                decorative
                className="aspect-[4/5] rounded-2xl"
              />
            </div>
          </div>
          <dl className="mt-14 grid grid-cols-2 gap-4 sm:grid-cols-4">
            {[
              { value: `vanaf ${formatEuro(claims.partnerPriceFrom)}`, label: 'voor partners' },
              { value: claims.activePartners, label: 'actieve partners' },
              { value: claims.familySatisfaction, label: 'tevreden families' },
              { value: `${claims.approvalHours} uur`, label: 'tot goedkeuring' },
            ].map((item) => (
              <div
                key={item.label}
                className="flex flex-col-reverse rounded-2xl border border-border bg-card/70 p-5"
              >
                <dt className="text-sm text-muted">{item.label}</dt>
                <dd className="font-serif text-2xl font-semibold">{item.value}</dd>
              </div>
            ))}
          </dl>
        </Container>
      </section>

      <section aria-labelledby="steps-heading" className="py-20">
        <Container>
          <h2 id="steps-heading" className="text-center text-3xl font-semibold sm:text-4xl">
            Zo werkt het
          </h2>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {steps.map(({ Icon, title, text }, i) => (
              <li key={title} className="relative rounded-3xl border border-border bg-card p-7 shadow-soft">
                <div className="flex items-center gap-3">
                  <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-accent-soft text-accent">
                    <Icon aria-hidden className="h-5 w-5" />
                  </span>
                  <span className="text-sm font-semibold text-muted">Stap {i + 1}</span>
                </div>
                <h3 className="mt-5 text-xl font-semibold">{title}</h3>
                <p className="mt-2 leading-relaxed text-muted">{text}</p>
              </li>
            ))}
          </ol>
          <p className="mx-auto mt-8 max-w-2xl text-center text-sm text-muted">
            Na je aanvraag staat je account op{' '}
            <strong className="font-semibold text-foreground">in afwachting van goedkeuring</strong>. Nieuwe
            pagina’s staan doorgaans binnen {claims.pageWorkingDays} werkdagen klaar.
          </p>
        </Container>
      </section>

      <section
        id="aanvraag"
        aria-labelledby="apply-heading"
        className="scroll-mt-20 border-t border-border bg-background-soft py-20"
      >
        <Container className="max-w-3xl">
          {submittedCompany ? (
            <ThankYou companyName={submittedCompany} />
          ) : (
            <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-soft sm:p-10">
              <h2 id="apply-heading" className="text-3xl font-semibold">
                Partnerschap aanvragen
              </h2>
              <p className="mt-3 mb-8 text-muted">
                Vertel ons wie je bent. We nemen binnen {claims.approvalHours} uur contact met je op.
              </p>
              <PartnerForm onDone={setSubmittedCompany} />
            </div>
          )}
        </Container>
      </section>
    </>
  );
}

function ThankYou({ companyName }: { companyName: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div className="flex flex-col items-center rounded-3xl border border-border bg-card px-7 py-14 text-center shadow-soft sm:px-12">
      <span className="flex h-16 w-16 items-center justify-center rounded-full bg-success-soft text-success">
        <HeartHandshake aria-hidden className="h-8 w-8" />
      </span>
      <h2
        id="apply-heading"
        ref={ref}
        tabIndex={-1}
        className="mt-6 text-3xl font-semibold focus:outline-none"
      >
        Bedankt voor je aanvraag!
      </h2>
      <p className="mt-4 max-w-lg text-lg leading-relaxed text-muted">
        We behandelen de aanvraag van <strong className="font-semibold text-foreground">{companyName}</strong>
        . Ons team neemt binnen {claims.approvalHours} uur contact met je op.
      </p>
      <p className="mt-4 flex items-center gap-2 text-sm text-muted">
        <MailCheck aria-hidden className="h-4 w-4" />
        Je ontvangt ook een bevestiging per e-mail.
      </p>
      <Link to={routes.home} className={buttonClass('outline', 'md', 'mt-8')}>
        Naar de startpagina
      </Link>
    </div>
  );
}
