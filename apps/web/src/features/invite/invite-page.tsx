import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { AlertCircle, ArrowRight, Heart, LogIn, UserPlus } from 'lucide-react';
import { memberRoleLabels, routes } from '@aandenken/contract';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { formatDate } from '../../lib/format.ts';
import { roleDescription } from './role-text.ts';
import { useAcceptInvite, useInvitePreview } from './api/invite.ts';

/** Dutch sentence for an invitation that cannot be used (anymore). */
export function inviteProblem(error: unknown, expired = false): { title: string; text: string } {
  if (expired || (error instanceof ApiError && error.code === 'INVITE_EXPIRED')) {
    return {
      title: 'Deze uitnodiging is verlopen',
      text: 'Een uitnodiging is 14 dagen geldig. Vraag degene die je uitnodigde om een nieuwe uitnodiging.',
    };
  }
  if (error instanceof ApiError && error.code === 'INVITE_USED') {
    return {
      title: 'Deze uitnodiging is al gebruikt',
      text: 'Iemand anders heeft deze uitnodiging al aangenomen. Vraag om een eigen uitnodiging.',
    };
  }
  if (error instanceof ApiError && (error.status === 404 || error.code === 'INVITE_REVOKED')) {
    return {
      title: 'Deze uitnodiging is niet meer geldig',
      text: 'De uitnodiging is ingetrokken of bestaat niet. Vraag degene die je uitnodigde om een nieuwe uitnodiging.',
    };
  }
  if (error instanceof ApiError && error.isNetworkError)
    return { title: 'Geen verbinding', text: error.message };
  return {
    title: 'Er ging iets mis',
    text: error instanceof Error ? error.message : 'Probeer het later opnieuw.',
  };
}

/** Marks the return from signing in or registering here: the invitation is then accepted without a click. */
export const ACCEPT_MARKER = 'accepteren';

/** /uitnodiging/{inviteCode}: who invites to which memorial; sign in or register, then accept and open the page. */
export default function InvitePage() {
  const { inviteCode = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const auth = useAuth();
  const navigate = useNavigate();
  const preview = useInvitePreview(inviteCode);
  const accept = useAcceptInvite(inviteCode);
  const returnUrl = `${routes.invite(inviteCode)}?${ACCEPT_MARKER}=1`;

  const invite = preview.data;
  const unusable = preview.isError || !invite || invite.expired || invite.status !== 'pending';
  const acceptOnArrival = search.get(ACCEPT_MARKER) === '1';
  const autoAccepted = useRef(false);

  const acceptAndOpen = () =>
    accept.mutate(undefined, {
      onSuccess: (r) => void navigate(routes.memorial(r.memorialId), { replace: true }),
    });

  // Back from signing in or registering on this page: accept once and open the memorial. The marker stays
  // in the address until the answer is in (the memorial then replaces this entry, so the back button never
  // accepts again); a refusal takes it away and shows why. mutateAsync, not mutate's callbacks: those are
  // dropped when the page re-renders into another observer while the request runs.
  useEffect(() => {
    if (!acceptOnArrival || auth.status !== 'authenticated' || preview.isPending || autoAccepted.current)
      return;
    autoAccepted.current = true;
    if (unusable) {
      setSearch({}, { replace: true });
      return;
    }
    accept.mutateAsync().then(
      (r) => navigate(routes.memorial(r.memorialId), { replace: true }),
      () => setSearch({}, { replace: true }),
    );
  });

  if (
    preview.isPending ||
    auth.status === 'loading' ||
    (acceptOnArrival && auth.status === 'authenticated' && !unusable)
  )
    return <PageSpinner />;
  const problem = unusable
    ? invite && invite.status === 'accepted'
      ? {
          title: 'Deze uitnodiging is al aangenomen',
          text: 'Ben jij dat? Log in en open de pagina via ‘Mijn Pagina’s’.',
        }
      : inviteProblem(preview.error, invite?.expired || invite?.status === 'expired')
    : accept.isError
      ? inviteProblem(accept.error)
      : null;

  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-center overflow-hidden py-16">
      <title>Uitnodiging · Aandenken</title>
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_24rem_at_50%_0%,color-mix(in_srgb,var(--accent)_12%,transparent),transparent)]"
      />
      <div className="relative mx-auto w-full max-w-lg px-5">
        <div className="rounded-3xl border border-border bg-card p-7 text-center text-card-foreground shadow-lift sm:p-10">
          <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            {problem ? (
              <AlertCircle aria-hidden className="h-6 w-6" />
            ) : (
              <Heart aria-hidden className="h-6 w-6" />
            )}
          </div>

          {unusable ? (
            <div role="alert">
              <h1 className="mt-6 text-3xl font-semibold">{problem!.title}</h1>
              <p className="mt-3 leading-relaxed text-muted">{problem!.text}</p>
              <Link
                to={auth.status === 'authenticated' ? routes.myPages : routes.home}
                className={buttonClass('outline', 'lg', 'mt-8')}
              >
                {auth.status === 'authenticated' ? 'Naar Mijn Pagina’s' : 'Naar de startpagina'}
              </Link>
            </div>
          ) : (
            <>
              <p className="mt-6 text-xs font-semibold tracking-[0.18em] text-accent uppercase">
                Uitnodiging
              </p>
              <h1 className="mt-3 text-3xl font-semibold">
                {invite.inviterName ? `${invite.inviterName} nodigt je uit` : 'Je bent uitgenodigd'}
              </h1>
              <p className="mt-3 leading-relaxed text-muted">
                {invite.inviteeName ? `${invite.inviteeName}, je` : 'Je'} bent uitgenodigd voor de
                gedenkpagina van{' '}
                <strong className="font-semibold text-foreground">{invite.memorialName}</strong> als{' '}
                <strong className="font-semibold text-foreground">
                  {memberRoleLabels[invite.role].toLowerCase()}
                </strong>
                : {roleDescription[invite.role]}.
              </p>
              <p className="mt-2 text-sm text-muted">
                De uitnodiging is geldig tot en met {formatDate(invite.expiresAt)}.
              </p>

              {accept.isError && (
                <p
                  role="alert"
                  className="mt-6 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger"
                >
                  {problem?.text ?? accept.error.message}
                </p>
              )}

              {auth.status === 'authenticated' ? (
                <div className="mt-8 flex flex-col items-center gap-3">
                  <p className="text-sm text-muted">
                    Je bent ingelogd als {auth.user?.name || auth.user?.email}.
                  </p>
                  <Button size="lg" disabled={accept.isPending} onClick={acceptAndOpen}>
                    {accept.isPending ? (
                      <Spinner className="[&>span]:h-5 [&>span]:w-5" />
                    ) : (
                      <ArrowRight aria-hidden className="h-4 w-4" />
                    )}
                    Uitnodiging accepteren
                  </Button>
                </div>
              ) : (
                <div className="mt-8 flex flex-col gap-3">
                  <p className="text-sm text-muted">
                    Log in of maak een account aan om de uitnodiging aan te nemen.
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
