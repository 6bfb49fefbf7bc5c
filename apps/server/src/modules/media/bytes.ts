import type { Readable } from 'node:stream';
import { mediaErrorCodes } from '@aandenken/contract';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { streamStored, type MediaStorage } from '../../lib/media/storage.ts';
import { byteRange } from '../../lib/http-range.ts';
import { SIGNED_URL_MAX_AGE_S, type MediaUrlSigner } from '../../lib/media/url-signer.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { canSeeMemory, isMemoryOpen, type MemoryFacts } from '../../shared/memory-policy.ts';
import { mediaRepository } from './repository.ts';
import { mediaNotFound } from './service.ts';

/** Variants are immutable (a new upload is a new id), so open media may be cached for a day. */
const OPEN_MAX_AGE_S = 86_400;
const variantPattern = /^(w\d{2,5}\.(webp|jpg)|original)$/;

export interface ServeRequest {
  mediaId: string;
  variant: string;
  exp?: string;
  sig?: string;
  /** Resolved only when there is no valid signature, so a stale bearer token never spoils a signed link. */
  caller: () => Promise<Caller>;
  ifNoneMatch?: string;
  range?: string;
}

export interface ServeResult {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body: Readable | null;
}

const linkExpired = () =>
  new AppError(403, mediaErrorCodes.mediaLinkExpired, 'Deze link is verlopen. Laad de pagina opnieuw.');
const rangeNotSatisfiable = () =>
  new AppError(416, mediaErrorCodes.mediaRangeNotSatisfiable, 'Dit deel van het bestand bestaat niet.');

/**
 * Serves media bytes to those who may see them: a valid signed link (handed out only to callers
 * who could see the media), or a bearer token (or none, for open media) that passes the same
 * checks as the JSON calls. Everything else answers like a missing file.
 */
export function mediaBytesService({
  db,
  storage,
  signer,
}: {
  db: Db;
  storage: MediaStorage;
  signer: MediaUrlSigner;
}) {
  const access = memorialAccessService(db);
  const repo = mediaRepository(db);

  return {
    async serve(req: ServeRequest): Promise<ServeResult> {
      if (!isUuid(req.mediaId) || !variantPattern.test(req.variant)) throw mediaNotFound();
      const mediaId = req.mediaId.toLowerCase();
      const row = await repo.findForServing(mediaId, req.variant);
      if (!row) throw mediaNotFound();
      const signature =
        req.exp || req.sig ? await signer.check(mediaId, req.variant, req.exp, req.sig) : 'invalid';
      const memory: MemoryFacts | null = row.memory_id
        ? {
            status: row.memory_status!,
            membersOnly: row.memory_members_only!,
            authorUserId: row.memory_author_user_id,
            authorGuestTokenId: row.memory_author_guest_token_id,
          }
        : null;

      const caller: Caller = signature === 'valid' ? { kind: 'anonymous' } : await req.caller();
      const acc = await access.resolve(caller, row.memorial_id);
      if (!acc) throw mediaNotFound();
      // Hidden after a report: a signed link handed out before stops too; the owners fetch it signed in.
      if (row.hidden) {
        const own = signature === 'valid' ? await access.resolve(await req.caller(), row.memorial_id) : acc;
        if (own?.role !== 'owner') throw mediaNotFound();
      }
      if (signature !== 'valid') {
        const allowed = acc.role !== null && (!memory || canSeeMemory(caller, acc, memory));
        if (!allowed) throw signature === 'expired' ? linkExpired() : mediaNotFound();
      }
      const open =
        !row.hidden &&
        acc.visibility === 'public' &&
        acc.status === 'active' &&
        (!memory || isMemoryOpen(acc, memory));
      const maxAge =
        signature === 'valid'
          ? Math.max(0, Math.min(Number(req.exp) - Math.floor(Date.now() / 1000), SIGNED_URL_MAX_AGE_S))
          : 300;

      const etag = `"${row.sha256.slice(0, 32)}"`;
      const headers: Record<string, string> = {
        etag,
        'cache-control': open ? `public, max-age=${OPEN_MAX_AGE_S}` : `private, max-age=${maxAge}`,
        'content-type': row.content_type,
        'accept-ranges': 'bytes',
        'content-disposition': 'inline',
        // The web app may live on another origin than the API; access is decided above, not by origin.
        'cross-origin-resource-policy': 'cross-origin',
      };
      if (!open) headers.vary = 'Authorization';
      if (req.ifNoneMatch && req.ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
        return { status: 304, headers, body: null };
      }
      const range = byteRange(req.range, row.size_bytes);
      if (range === 'unsatisfiable') throw rangeNotSatisfiable();
      // Only a file the store says it does not have is 404; an unreachable or failing store is 503.
      const body = await streamStored(storage, row.storage_key, mediaNotFound, range ?? undefined);
      if (range) {
        headers['content-range'] = `bytes ${range.start}-${range.end}/${row.size_bytes}`;
        headers['content-length'] = String(range.end - range.start + 1);
        return { status: 206, headers, body };
      }
      headers['content-length'] = String(row.size_bytes);
      return { status: 200, headers, body };
    },
  };
}
