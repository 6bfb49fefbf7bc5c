import { Link } from 'react-router';
import { routes } from '@aandenken/contract';
import { company } from '../../content/company.ts';
import { Logo } from './logo.tsx';

const linkClass = 'rounded-sm text-muted transition-colors hover:text-foreground';

export function Footer() {
  return (
    <footer className="border-t border-border bg-background-soft">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-5 py-12 sm:px-8 md:grid-cols-[1.4fr_1fr_1fr]">
        <div className="max-w-sm">
          <Logo />
          <p className="mt-4 text-sm leading-relaxed text-muted">
            Een plek waar herinneringen voortleven en liefde wordt gekoesterd.
          </p>
        </div>
        <nav aria-label="Voettekst">
          <h2 className="font-sans text-sm font-semibold tracking-wide text-foreground">Aandenken</h2>
          <ul className="mt-4 flex flex-col gap-2.5 text-sm">
            <li>
              <Link to={routes.pricing} className={linkClass}>
                Prijzen
              </Link>
            </li>
            <li>
              <Link to={routes.contact} className={linkClass}>
                Contact
              </Link>
            </li>
            <li>
              <Link to={routes.privacy} className={linkClass}>
                Privacy
              </Link>
            </li>
            <li>
              <Link to={routes.terms} className={linkClass}>
                Voorwaarden
              </Link>
            </li>
            <li>
              <Link to={routes.companyDirectory} className={linkClass}>
                Uitvaart ondernemingen
              </Link>
            </li>
            <li>
              <Link to={`${routes.contact}#veelgestelde-vragen`} className={linkClass}>
                Veelgestelde vragen
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="font-sans text-sm font-semibold tracking-wide text-foreground">Contact</h2>
          <address className="mt-4 flex flex-col gap-2.5 text-sm text-muted not-italic">
            <a href={`mailto:${company.email}`} className={linkClass}>
              {company.email}
            </a>
            <a href={`tel:${company.phoneHref}`} className={linkClass}>
              {company.phone}
            </a>
            <span>{company.openingHours}</span>
          </address>
        </div>
      </div>
      <div className="border-t border-border">
        <p className="mx-auto w-full max-w-6xl px-5 py-5 text-xs text-muted sm:px-8">
          © {new Date().getFullYear()} {company.legalName} · {company.city}
        </p>
      </div>
    </footer>
  );
}
