import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { routes } from '@aandenken/contract';
import { MemorialUnavailable } from '../../components/memorial/memorial-unavailable.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { storeGuestToken } from '../../lib/guest-token.ts';
import { readGuestAccess } from '../../lib/memorials/guest-access.ts';
import { memorialKeys, useMemorial } from '../../lib/memorials/queries.ts';
import { useMemorialBySlug } from './api/by-slug.ts';
import { GuestScope } from '../../lib/memorials/scope.tsx';
import { linkTokenFromHash, useConsumeLink } from './api/consume-link.ts';
import { DeadLink } from './components/dead-link.tsx';
import { LoadError } from './components/load-error.tsx';
import { MemorialSkeleton } from './components/memorial-skeleton.tsx';
import { MemorialView } from './memorial-view.tsx';
import './memorial.css';

/** 401, 403 and 404 look the same to the visitor: the page does not exist or is private. */
export const isUnavailable = (error: unknown) =>
  error instanceof ApiError && [401, 403, 404].includes(error.status);

/** The server refused the link itself (used, expired, its invitation accepted or revoked): not a failure to retry. */
export const isLinkRefused = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * /memorial/{id} and /gedenkpagina/{slug}: the memorial page for everyone who may see it. A signed-in
 * visitor who is not a member but entered this page's access code sees it as a guest.
 */
export default function MemorialPage() {
  const { id = '', slug } = useParams();
  return slug ? <MemorialAtAddress slug={slug} /> : <MemorialById id={id} />;
}

/** The readable address: the page is found by its slug; the server answers who may see it, as for the id. */
function MemorialAtAddress({ slug, asGuest = false }: { slug: string; asGuest?: boolean }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const bySlug = useMemorialBySlug(slug, auth.status !== 'loading');
  const current = bySlug.data?.slug;
  // An address the page had before its names changed: show its current one (the server redirects a public
  // page's; a private page's is only known to those who may see it).
  useEffect(() => {
    if (current && current !== slug)
      void navigate(
        { pathname: routes.memorialBySlug(current), hash: window.location.hash },
        { replace: true },
      );
  }, [slug, current, navigate]);
  if (auth.status === 'loading' || bySlug.isPending) return <MemorialSkeleton />;
  if (bySlug.isError) {
    if (!isUnavailable(bySlug.error))
      return <LoadError error={bySlug.error} onRetry={() => void bySlug.refetch()} />;
    // A signed-in visitor who is not a member may hold a guest token (the access code): ask with that.
    const guest = readGuestAccess();
    if (!asGuest && auth.status === 'authenticated' && guest && !guest.expired) {
      return (
        <GuestScope>
          <MemorialAtAddress slug={slug} asGuest />
        </GuestScope>
      );
    }
    return <MemorialUnavailable />;
  }
  return <MemorialById id={bySlug.data.id} />;
}

function MemorialById({ id }: { id: string }) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const linkToken = linkTokenFromHash(location.hash);
  const consume = useConsumeLink();
  const consumed = useRef<string | null>(null);
  // A refused link may still belong to someone who can open the page (a member who accepted the
  // invitation, a public page): then the page is shown as usual.
  const linkRefused = !!linkToken && consume.isError && isLinkRefused(consume.error);
  const memorial = useMemorial(id, auth.status !== 'loading' && (!linkToken || linkRefused));

  // The one-time link of an access mail: exchange it for a guest token, then open the page without it.
  useEffect(() => {
    if (!linkToken || consumed.current === linkToken) return;
    consumed.current = linkToken;
    consume.mutate(linkToken, {
      onSuccess: (guest) => {
        storeGuestToken(guest.token);
        queryClient.removeQueries({ queryKey: memorialKeys.root });
        void navigate({ pathname: routes.memorial(guest.memorialId), hash: '' }, { replace: true });
      },
    });
  }, [linkToken, consume, queryClient, navigate]);
  const guest = useMemo(() => {
    const access = readGuestAccess();
    return access?.memorialId === id ? access : null;
    // Read again when the page or the session changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, auth.status]);

  if (linkToken && consume.isError && !linkRefused) {
    return (
      <LoadError
        error={consume.error}
        onRetry={() => {
          consumed.current = null;
          consume.reset();
        }}
      />
    );
  }
  if (auth.status === 'loading' || (linkToken && !linkRefused) || memorial.isPending)
    return <MemorialSkeleton />;

  if (memorial.isError) {
    if (isUnavailable(memorial.error)) {
      if (auth.status === 'authenticated' && guest && !guest.expired) {
        return (
          <GuestScope>
            <MemorialView id={id} />
          </GuestScope>
        );
      }
      if (linkRefused) return <DeadLink memorialId={id} />;
      return <MemorialUnavailable expiredGuestAccess={guest?.expired} />;
    }
    return <LoadError error={memorial.error} onRetry={() => void memorial.refetch()} />;
  }

  return <MemorialView id={id} />;
}
