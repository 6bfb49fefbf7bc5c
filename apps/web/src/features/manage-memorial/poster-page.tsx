import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Printer } from 'lucide-react';
import { roleAtLeast, routes, type Memorial } from '@aandenken/contract';
import { MemorialUnavailable } from '../../components/memorial/memorial-unavailable.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { cn } from '../../lib/cn.ts';
import { fullName, lifeYears } from '../../lib/memorials/life.ts';
import { useMemorial } from '../../lib/memorials/queries.ts';
import { useGuestbook } from './api/guestbook.ts';
import { QrCode } from './components/qr-code.tsx';
import './poster.css';

type Format = 'a4' | 'a5' | 'tent';
const formats: { value: Format; label: string; hint: string }[] = [
  { value: 'a4', label: 'Poster A4', hint: 'Voor bij de ingang of de condoleancetafel.' },
  { value: 'a5', label: 'Poster A5', hint: 'Kleiner, bijvoorbeeld in een standaard.' },
  { value: 'tent', label: 'Tafelkaart', hint: 'A4, in het midden dubbelvouwen: aan beide kanten leesbaar.' },
];

function PosterContent({ m, url, large }: { m: Memorial; url: string; large: boolean }) {
  const years = lifeYears(m);
  const short = url.replace(/^https?:\/\//, '');
  return (
    <>
      <p className="text-xs font-semibold tracking-[0.25em] text-[#a24f60] uppercase">Condoleanceregister</p>
      <p className="mt-3 text-sm tracking-[0.2em] uppercase">Ter nagedachtenis aan</p>
      <p
        className={cn(
          'mt-2 font-serif leading-tight font-semibold',
          large ? 'text-4xl sm:text-5xl' : 'text-3xl',
        )}
      >
        {fullName(m)}
      </p>
      {years && <p className="mt-1 tracking-[0.2em] text-[#a24f60]">{years}</p>}
      <QrCode
        value={url}
        label={`QR-code van het condoleanceregister van ${fullName(m)}`}
        className={cn('mx-auto my-6 rounded-xl', large ? 'h-64 w-64' : 'h-40 w-40')}
      />
      <p className={cn('max-w-md leading-relaxed', large ? 'text-lg' : 'text-sm')}>
        Scan de code met de camera van je telefoon en schrijf je naam en een bericht in het
        condoleanceregister.
      </p>
      <p className="mt-3 text-sm">Of ga naar</p>
      <p className={cn('font-semibold break-all', large ? 'text-xl' : 'text-base')}>{short}</p>
    </>
  );
}

/** /memorial/{id}/register-poster: the guestbook's QR code and short link on a poster or a table card. */
export default function GuestbookPosterPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const signedIn = auth.status === 'authenticated';
  const memorial = useMemorial(id, signedIn);
  const m = memorial.data;
  const manager = !!m && roleAtLeast(m.role, 'editor');
  const guestbook = useGuestbook(id, manager);
  const [format, setFormat] = useState<Format>('a4');

  useEffect(() => {
    // A toast from the screen before would lie over the QR code. Its library is loaded when one shows, so
    // this asks for nothing new; kept out of lib/toast.ts, which every page loads.
    if (document.querySelector('[data-sonner-toaster]')) void import('sonner').then((s) => s.toast.dismiss());
    document.documentElement.setAttribute('data-print-poster', '');
    return () => document.documentElement.removeAttribute('data-print-poster');
  }, []);

  if (!signedIn || memorial.isPending || (manager && guestbook.isPending)) return <PageSpinner />;
  if (memorial.isError || !m || !manager) return <MemorialUnavailable />;
  const gb = guestbook.data?.guestbook;

  return (
    <Container className="poster-wrap max-w-3xl py-10 sm:py-14">
      <title>{`Poster condoleanceregister ${fullName(m)} · Aandenken`}</title>
      <div data-print="hide" className="mb-8 flex flex-wrap items-center justify-between gap-4">
        <Link
          to={routes.memorialManage(m.id, 'uitvaart')}
          className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" />
          Terug naar beheren
        </Link>
        {gb && (
          <Button onClick={() => window.print()}>
            <Printer aria-hidden className="h-4 w-4" />
            Afdrukken
          </Button>
        )}
      </div>
      <h1 data-print="hide" className="mb-6 text-2xl font-semibold">
        Poster en tafelkaart voor het condoleanceregister
      </h1>
      {!gb ? (
        <p>
          Open eerst het condoleanceregister in het tabblad{' '}
          <Link to={routes.memorialManage(m.id, 'uitvaart')} className="font-medium text-primary underline">
            Uitvaart
          </Link>
          .
        </p>
      ) : (
        <>
          <fieldset data-print="hide" className="mb-8">
            <legend className="mb-2 font-medium">Formaat</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              {formats.map((f) => (
                <label
                  key={f.value}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-2xl border p-3',
                    format === f.value ? 'border-primary' : 'border-border',
                  )}
                >
                  <input
                    type="radio"
                    name="format"
                    value={f.value}
                    checked={format === f.value}
                    onChange={() => setFormat(f.value)}
                    className="mt-1 h-4 w-4 accent-primary"
                  />
                  <span>
                    <span className="block font-medium">{f.label}</span>
                    <span className="block text-sm text-muted">{f.hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {!gb.open && (
            <p data-print="hide" className="mb-6 rounded-2xl bg-background-soft p-4 text-sm">
              Let op: het register is nu gesloten. Open het weer voordat bezoekers de code scannen.
            </p>
          )}
          <section
            aria-label={formats.find((f) => f.value === format)!.label}
            data-format={format}
            className="poster-sheet mx-auto rounded-[1.75rem] border border-border shadow-lift"
          >
            {format === 'tent' ? (
              <>
                {/* Turned upside down, its top border is the fold line in the middle of the card. */}
                <div className="poster-tent-half upside-down border-t border-dashed border-[#cfc7bb] p-8">
                  <PosterContent m={m} url={gb.url} large={false} />
                </div>
                <div className="poster-tent-half p-8">
                  <PosterContent m={m} url={gb.url} large={false} />
                </div>
              </>
            ) : (
              <div className="poster-tent-half p-8 sm:p-12">
                <PosterContent m={m} url={gb.url} large={format === 'a4'} />
              </div>
            )}
          </section>
        </>
      )}
    </Container>
  );
}
