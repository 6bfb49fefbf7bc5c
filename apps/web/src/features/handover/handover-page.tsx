import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AlertCircle, ArrowRight, HeartHandshake, LogIn, RotateCw, UserPlus } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { formatDate } from '../../lib/format.ts';
import { useAcceptHandover, useHandoverMembers, useHandoverPreview } from './api/handover.ts';
import { CompanyPeople, keeps } from './company-people.tsx';
import { HandedOver } from './handed-over.tsx';

function problemOf(error: unknown, status?: string): { title: string; text: string } {
  if (status === 'accepted')
    return {
      title: 'Deze pagina is al overgenomen',
      text: 'Ben jij dat? Log in en open de pagina via ‘Mijn Pagina’s’.',
    };
  if (status === 'expired' || (error instanceof ApiError && error.code === 'INVITE_EXPIRED'))
    return {
      title: 'Deze link is verlopen',
      text: 'Vraag de uitvaartondernemer om de uitnodiging opnieuw te versturen.',
    };
  if (error instanceof ApiError && error.code === 'INVITE_USED')
    return { title: 'Deze pagina is al overgenomen', text: 'Iemand anders heeft de pagina al overgenomen.' };
  if (error instanceof ApiError && error.status === 404)
    return {
      title: 'Deze link is niet meer geldig',
      text: 'Er is misschien een nieuwere uitnodiging gestuurd. Vraag de uitvaartondernemer om de uitnodiging opnieuw te versturen.',
    };
  return {
    title: 'Er ging iets mis',
    text: error instanceof Error ? error.message : 'Probeer het later opnieuw.',
  };
}

/**
 * /overnemen/{code}: the family takes over the page a funeral company made. Signed in (with a confirmed
 * address) they choose whether the company may keep managing it and whether "Verzorgd door" is shown,
 * then become its owner. Without the company they also choose whom of its invitees to keep and whether
 * the page gets a new access code, which is shown once taken over.
 */
export default function HandoverPage() {
  const { code = '' } = useParams();
  const auth = useAuth();
  const navigate = useNavigate();
  const preview = useHandoverPreview(code);
  const accept = useAcceptHandover(code);
  const [partnerRoleAllowed, setPartnerRole] = useState(false);
  const [shownPublicly, setShown] = useState(false);
  const [keepChoice, setKeepChoice] = useState<Record<string, boolean>>({});
  const [newCode, setNewCode] = useState(true);
  const [accepted, setAccepted] = useState<{ memorialId: string; newAccessCode: string } | null>(null);
  const returnUrl = routes.handover(code);
  const members = useHandoverMembers(
    code,
    auth.status === 'authenticated' && preview.data?.status === 'pending' && !accepted,
  );

  if (preview.isPending || auth.status === 'loading') return <PageSpinner />;
  const h = preview.data;
  if (accepted && h)
    return <HandedOver memorialName={h.memorialName} companyName={h.companyName} {...accepted} />;
  const unusable = preview.isError || !h || h.status !== 'pending';
  const problem = unusable ? problemOf(preview.error, h?.status) : null;
  const notVerified = accept.error instanceof ApiError && accept.error.code === 'EMAIL_NOT_VERIFIED';
  const membersNotice = !members.isError
    ? null
    : members.error instanceof ApiError && members.error.code === 'EMAIL_NOT_VERIFIED'
      ? 'Wie het bedrijf heeft uitgenodigd, zie je zodra je e-mailadres is bevestigd.'
      : members.error instanceof ApiError && members.error.status === 409
        ? members.error.message
        : `We konden niet laden wie er is uitgenodigd. Neem je de pagina toch over, dan blijft iedereen behalve de medewerkers van ${h?.companyName ?? 'het bedrijf'}.`;

  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-center overflow-hidden py-16">
      <title>Pagina overnemen · Aandenken</title>
      <div className="relative mx-auto w-full max-w-xl px-5">
        <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-lift sm:p-10">
          <div className="flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            {problem ? (
              <AlertCircle aria-hidden className="h-6 w-6" />
            ) : (
              <HeartHandshake aria-hidden className="h-6 w-6" />
            )}
          </div>
          {problem ? (
            <div role="alert">
              <h1 className="mt-6 text-3xl font-semibold">{problem.title}</h1>
              <p className="mt-3 leading-relaxed text-muted">{problem.text}</p>
              <Link
                to={auth.status === 'authenticated' ? routes.myPages : routes.home}
                className={buttonClass('outline', 'lg', 'mt-8')}
              >
                {auth.status === 'authenticated' ? 'Naar Mijn Pagina’s' : 'Naar de startpagina'}
              </Link>
            </div>
          ) : (
            <>
              <h1 className="mt-6 text-3xl font-semibold">Pagina overnemen</h1>
              <p className="mt-3 leading-relaxed text-muted">
                {h!.companyName} heeft de gedenkpagina van{' '}
                <strong className="font-semibold text-foreground">{h!.memorialName}</strong> voor je gemaakt.
                Als je de pagina overneemt, word je de eigenaar: jij bepaalt wie de pagina ziet en beheert.
              </p>
              <p className="mt-2 text-sm text-muted">
                De link is geldig tot en met {formatDate(h!.expiresAt)}.
              </p>

              {auth.status === 'authenticated' ? (
                <form
                  className="mt-8 flex flex-col gap-5"
                  onSubmit={(e) => {
                    e.preventDefault();
                    const shutOut = partnerRoleAllowed
                      ? {}
                      : {
                          keepAccessCode: !newCode,
                          // Unknown when the list did not load: the server's default (as the screen's) applies.
                          keepMemberIds: members.data?.items
                            .filter((m) => keeps(m, keepChoice))
                            .map((m) => m.memberId),
                        };
                    accept.mutate(
                      { partnerRoleAllowed, shownPublicly, ...shutOut },
                      {
                        onSuccess: (r) => {
                          if (r.newAccessCode)
                            setAccepted({ memorialId: r.memorialId, newAccessCode: r.newAccessCode });
                          else void navigate(routes.memorial(r.memorialId), { replace: true });
                        },
                      },
                    );
                  }}
                >
                  <fieldset className="flex flex-col gap-4">
                    <legend className="font-semibold">Jouw keuzes (je kunt ze later altijd wijzigen)</legend>
                    <label className="flex gap-3">
                      <input
                        type="checkbox"
                        className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
                        checked={partnerRoleAllowed}
                        onChange={(e) => setPartnerRole(e.target.checked)}
                      />
                      <span>
                        {h!.companyName} mag de pagina blijven meebeheren
                        <span className="block text-sm text-muted">
                          Zij kunnen dan gegevens aanpassen, herinneringen goedkeuren en mensen uitnodigen.
                        </span>
                      </span>
                    </label>
                    <label className="flex gap-3">
                      <input
                        type="checkbox"
                        className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
                        checked={shownPublicly}
                        onChange={(e) => setShown(e.target.checked)}
                      />
                      <span>
                        Toon ‘Verzorgd door {h!.companyName}’ op de pagina
                        <span className="block text-sm text-muted">
                          Een openbare pagina staat dan ook op de pagina van de uitvaartondernemer.
                        </span>
                      </span>
                    </label>
                  </fieldset>
                  {!partnerRoleAllowed && (
                    <CompanyPeople
                      companyName={h!.companyName}
                      members={members.data}
                      loading={members.isLoading}
                      notice={membersNotice}
                      choice={keepChoice}
                      onChoice={(id, keep) => setKeepChoice((c) => ({ ...c, [id]: keep }))}
                      newCode={newCode}
                      onNewCode={setNewCode}
                    />
                  )}
                  {accept.isError && (
                    <div
                      role="alert"
                      className="rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger"
                    >
                      <p>{notVerified ? accept.error.message : problemOf(accept.error).text}</p>
                      {notVerified && (
                        <Button
                          type="submit"
                          variant="outline"
                          size="sm"
                          className="mt-3"
                          disabled={accept.isPending}
                        >
                          <RotateCw aria-hidden className="h-4 w-4" />
                          Ik heb mijn e-mailadres bevestigd
                        </Button>
                      )}
                    </div>
                  )}
                  <p className="text-sm text-muted">
                    Je bent ingelogd als {auth.user?.name || auth.user?.email}.
                  </p>
                  <Button type="submit" size="lg" disabled={accept.isPending}>
                    {accept.isPending ? (
                      <Spinner className="[&>span]:h-5 [&>span]:w-5" />
                    ) : (
                      <ArrowRight aria-hidden className="h-4 w-4" />
                    )}
                    Pagina overnemen
                  </Button>
                </form>
              ) : (
                <div className="mt-8 flex flex-col gap-3">
                  <p className="text-sm text-muted">
                    Log in of maak een account aan om de pagina over te nemen. Gebruik het e-mailadres waarop
                    je deze uitnodiging kreeg: dan is het meteen bevestigd.
                  </p>
                  <Button size="lg" onClick={() => void auth.register({ returnUrl })}>
                    <UserPlus aria-hidden className="h-4 w-4" />
                    Account aanmaken
                  </Button>
                  <Button size="lg" variant="outline" onClick={() => void auth.signIn({ returnUrl })}>
                    <LogIn aria-hidden className="h-4 w-4" />
                    Inloggen
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
