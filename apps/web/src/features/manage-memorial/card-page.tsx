import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import QRCode from 'qrcode';
import { ArrowLeft, Printer } from 'lucide-react';
import { formatAccessCode, roleAtLeast, routes, type Memorial } from '@aandenken/contract';
import { MemorialUnavailable } from '../../components/memorial/memorial-unavailable.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { fullName, lifeYears } from '../../lib/memorials/life.ts';
import { useMemorial } from '../../lib/memorials/queries.ts';
import './card.css';

/**
 * Where the card's QR code leads: a private page through /beslotenpagina with the code in the fragment
 * (never sent to a server, so it stays out of logs) and the page named (`?pagina=`, so the code is compared
 * with this page only, under its own limit: docs/security.md), a public page straight to itself.
 */
export function cardTarget(
  origin: string,
  memorial: Pick<Memorial, 'id' | 'slug' | 'visibility' | 'accessCode'>,
): string {
  if (memorial.visibility === 'private' && memorial.accessCode)
    return `${origin}${routes.privatePage}?pagina=${memorial.id}#code=${memorial.accessCode}`;
  return `${origin}${routes.memorialBySlug(memorial.slug)}`;
}

/** /memorial/{id}/kaart: a card to print and hand out, with the access code, the address and a QR code. */
export default function CardPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const memorial = useMemorial(id, auth.status === 'authenticated');
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    document.documentElement.setAttribute('data-print-card', '');
    return () => document.documentElement.removeAttribute('data-print-card');
  }, []);

  const m = memorial.data;
  const target = m ? cardTarget(window.location.origin, m) : null;
  useEffect(() => {
    if (!target) return;
    let alive = true;
    void QRCode.toString(target, {
      type: 'svg',
      margin: 0,
      errorCorrectionLevel: 'M',
      color: { dark: '#1d2226', light: '#ffffff' },
    }).then((svg) => alive && setQr(svg));
    return () => {
      alive = false;
    };
  }, [target]);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError || !m || !roleAtLeast(m.role, 'editor')) return <MemorialUnavailable />;

  const years = lifeYears(m);
  const privatePage = m.visibility === 'private';
  const address = `${window.location.host}${privatePage ? routes.privatePage : routes.memorialBySlug(m.slug)}`;

  return (
    <Container className="print-sheet max-w-3xl py-10 sm:py-14">
      <title>{`Kaartje voor ${fullName(m)} · Aandenken`}</title>
      <div data-print="hide" className="mb-8 flex flex-wrap items-center justify-between gap-4">
        <Link
          to={routes.memorialManage(m.id, 'privacy')}
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" />
          Terug naar beheren
        </Link>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden className="h-4 w-4" />
          Afdrukken
        </Button>
      </div>
      <h1 data-print="hide" className="mb-6 text-2xl font-semibold">
        Kaartje om uit te delen
      </h1>

      <section
        aria-label="Kaartje"
        className="print-card mx-auto grid max-w-2xl gap-8 rounded-[1.75rem] border border-border bg-card p-8 text-card-foreground shadow-lift sm:grid-cols-[minmax(0,1fr)_auto] sm:p-10"
      >
        <div className="flex flex-col">
          <p className="print-accent text-xs font-semibold tracking-[0.2em] text-accent uppercase">
            Ter nagedachtenis aan
          </p>
          <p className="mt-2 font-serif text-3xl leading-tight font-semibold">{fullName(m)}</p>
          {years && <p className="print-accent mt-1 tracking-[0.2em] text-accent">{years}</p>}
          <div aria-hidden className="my-6 h-px w-14 bg-accent/60" />
          {privatePage ? (
            <>
              <p className="text-sm leading-relaxed">
                Bekijk de besloten gedenkpagina, deel een herinnering of steek een kaarsje aan. Ga naar
              </p>
              <p className="mt-1 font-semibold break-all">{address}</p>
              <p className="mt-3 text-sm">en vul deze toegangscode in:</p>
              <p
                className="mt-2 font-mono text-3xl font-semibold tracking-[0.18em] tabular-nums"
                data-testid="card-code"
              >
                {formatAccessCode(m.accessCode ?? '')}
              </p>
            </>
          ) : (
            <>
              <p className="text-sm leading-relaxed">
                Bekijk de gedenkpagina, deel een herinnering of steek een kaarsje aan:
              </p>
              <p className="mt-1 font-semibold break-all">{address}</p>
            </>
          )}
          <p className="mt-auto pt-6 text-xs text-muted">Of scan de code met de camera van je telefoon.</p>
        </div>
        <div className="flex flex-col items-center justify-center gap-2">
          <div
            role="img"
            aria-label={`QR-code die de gedenkpagina van ${fullName(m)} opent`}
            className="h-40 w-40 rounded-xl bg-white p-3 sm:h-44 sm:w-44 [&>svg]:h-full [&>svg]:w-full"
            data-testid="card-qr"
            data-target={target ?? ''}
            dangerouslySetInnerHTML={qr ? { __html: qr } : undefined}
          />
          <p className="text-xs text-muted">Aandenken</p>
        </div>
      </section>
      <p data-print="hide" className="mx-auto mt-6 max-w-2xl text-sm text-muted">
        Tip: druk het kaartje af op stevig papier (A5 liggend) en leg het bij de condoleance, of stuur het mee
        met de rouwkaart.
        {privatePage && ' Maak je later een nieuwe toegangscode, druk dan ook een nieuw kaartje af.'}
      </p>
    </Container>
  );
}
