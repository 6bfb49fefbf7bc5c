import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { ArrowRight, ChevronDown, Clock, Mail, MapPin, Phone } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { Container, Eyebrow } from '../../components/ui/container.tsx';
import { company } from '../../content/company.ts';
import { ContactForm } from './contact-form.tsx';
import { faq } from './faq.ts';

/** /contact: the form, how to reach us, and the FAQ. */
export default function ContactPage() {
  const { hash } = useLocation();
  // A link to a section (the footer's FAQ) lands on it: the page is loaded lazily, after the browser looked.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  return (
    <>
      <title>Contact · Aandenken</title>
      <section className="py-16 sm:py-20">
        <Container>
          <div className="max-w-2xl">
            <Eyebrow>Contact</Eyebrow>
            <h1 className="mt-3 text-4xl font-semibold sm:text-5xl">We helpen je graag</h1>
            <p className="mt-5 text-lg leading-relaxed text-muted">
              Heb je een vraag over een gedenkpagina, wil je partner worden of loop je ergens tegenaan? Stuur
              ons een bericht; we reageren binnen 24 uur.
            </p>
          </div>

          <div className="mt-12 grid gap-8 lg:grid-cols-[1.5fr_1fr]">
            <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-soft sm:p-10">
              <h2 id="contact-form-heading" className="mb-6 text-2xl font-semibold">
                Stuur ons een bericht
              </h2>
              <ContactForm />
            </div>

            <aside className="flex flex-col gap-6">
              <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-soft">
                <h2 className="text-xl font-semibold">Bereik ons direct</h2>
                <ul className="mt-5 flex flex-col gap-4">
                  <ContactLine Icon={Phone} label="Telefoon">
                    <a href={`tel:${company.phoneHref}`} className="hover:text-primary">
                      {company.phone}
                    </a>
                  </ContactLine>
                  <ContactLine Icon={Mail} label="E-mail">
                    <a href={`mailto:${company.email}`} className="break-all hover:text-primary">
                      {company.email}
                    </a>
                  </ContactLine>
                  <ContactLine Icon={MapPin} label="Adres">
                    <address className="not-italic">
                      {company.legalName}
                      <br />
                      {company.street}
                      <br />
                      {company.postalCode} {company.city}
                    </address>
                  </ContactLine>
                  <ContactLine Icon={Clock} label="Openingstijden">
                    {company.openingHours}
                  </ContactLine>
                </ul>
              </div>
              <div className="rounded-3xl border border-border bg-background-soft p-7">
                <h2 className="text-xl font-semibold">Misschien zoek je dit</h2>
                <ul className="mt-4 flex flex-col gap-2">
                  <li>
                    <Link
                      to={routes.partner}
                      className="group flex items-center justify-between gap-3 rounded-xl px-3 py-2.5 font-medium hover:bg-secondary"
                    >
                      Partner worden als uitvaartondernemer
                      <ArrowRight
                        aria-hidden
                        className="h-4 w-4 text-muted transition-transform group-hover:translate-x-0.5"
                      />
                    </Link>
                  </li>
                  <li>
                    <Link
                      to={routes.companyDirectory}
                      className="group flex items-center justify-between gap-3 rounded-xl px-3 py-2.5 font-medium hover:bg-secondary"
                    >
                      Vind een uitvaartondernemer
                      <ArrowRight
                        aria-hidden
                        className="h-4 w-4 text-muted transition-transform group-hover:translate-x-0.5"
                      />
                    </Link>
                  </li>
                  <li>
                    <Link
                      to={routes.pricing}
                      className="group flex items-center justify-between gap-3 rounded-xl px-3 py-2.5 font-medium hover:bg-secondary"
                    >
                      Bekijk de prijzen
                      <ArrowRight
                        aria-hidden
                        className="h-4 w-4 text-muted transition-transform group-hover:translate-x-0.5"
                      />
                    </Link>
                  </li>
                </ul>
              </div>
            </aside>
          </div>
        </Container>
      </section>

      <section
        id="veelgestelde-vragen"
        aria-labelledby="faq-heading"
        className="border-t border-border bg-background-soft py-16 sm:py-20"
      >
        <Container className="max-w-3xl">
          <h2 id="faq-heading" className="text-center text-3xl font-semibold sm:text-4xl">
            Veelgestelde vragen
          </h2>
          {/* Native disclosure: opens without the page's script (also before hydration); one at a time. */}
          <div className="mt-10 flex flex-col gap-3">
            {faq.map((item) => (
              <details
                key={item.question}
                name="faq"
                className="group overflow-hidden rounded-2xl border border-border bg-card"
              >
                <summary className="flex w-full cursor-pointer list-none items-center justify-between gap-4 px-6 py-5 text-left hover:bg-secondary/60 [&::-webkit-details-marker]:hidden">
                  <h3 className="font-sans text-base font-medium tracking-normal">{item.question}</h3>
                  <ChevronDown
                    aria-hidden
                    className="h-5 w-5 shrink-0 text-muted transition-transform duration-200 group-open:rotate-180"
                  />
                </summary>
                <div className="px-6 pb-5 leading-relaxed text-muted">{item.answer}</div>
              </details>
            ))}
          </div>
        </Container>
      </section>
    </>
  );
}

function ContactLine({
  Icon,
  label,
  children,
}: {
  Icon: typeof Phone;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent">
        <Icon aria-hidden className="h-4 w-4" />
      </span>
      <div>
        <p className="text-sm text-muted">{label}</p>
        <div className="font-medium">{children}</div>
      </div>
    </li>
  );
}
