import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ACCESS_CODE_INVALID_MESSAGE,
  ACCESS_CODE_RATE_LIMITED_MESSAGE,
  LINK_TOKEN_INVALID_MESSAGE,
  errorCodes,
  type GuestToken,
} from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { guestRepository } from './repository.ts';
import { guestTokens, type GuestTokens } from './tokens.ts';

export const accessCodeInvalid = () =>
  new AppError(404, errorCodes.accessCodeInvalid, ACCESS_CODE_INVALID_MESSAGE);
export const accessCodeLimited = () =>
  new AppError(429, errorCodes.rateLimited, ACCESS_CODE_RATE_LIMITED_MESSAGE);
export const linkTokenInvalid = () => new AppError(404, 'LINK_INVALID', LINK_TOKEN_INVALID_MESSAGE);

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/**
 * For the members feature, in its transaction: a removed member's invitation links end, and with them
 * the guest tokens those links were exchanged for.
 */
export const endMemberGuestLinks = (q: Queryable, memorialId: string, userId: string) =>
  guestRepository(q).endMemberLinks(q, memorialId, userId);

export function guestService(deps: { db: Db; config: Pick<Config, 'API_URL'>; tokens?: GuestTokens }) {
  const { db } = deps;
  const repo = guestRepository(db);
  const tokens = deps.tokens ?? guestTokens(deps);

  return {
    tokens,

    /** Exchanges a one-time link token (from an invite or access mail) for a guest token. */
    async tokenForLink(linkToken: string, log: FastifyBaseLogger): Promise<GuestToken> {
      await tokens.ready();
      // The guest token's id is written with the link, so ending the link ends the token too.
      const tokenId = randomUUID();
      const link = await db.transaction((tx) => repo.claimLinkToken(tx, sha256(linkToken), tokenId));
      if (!link) {
        log.info({ event: 'guest_link.failed' }, 'guest link token refused');
        throw linkTokenInvalid();
      }
      const issued = await tokens.issue({
        memorialId: link.memorial_id,
        accessCodeVersion: link.access_code_version,
        guestName: link.guest_name,
        tokenId,
      });
      log.info(
        { event: 'guest_link.used', memorialId: link.memorial_id, linkId: link.id, tokenId: issued.tokenId },
        'guest token issued for link',
      );
      return {
        token: issued.token,
        memorialId: link.memorial_id,
        expiresAt: issued.expiresAt.toISOString(),
        guestName: link.guest_name,
      };
    },

    /** Creates a one-time link token inside the caller's transaction; returns the token for the mail (stored only hashed). */
    async createLinkToken(
      q: Queryable,
      opts: {
        memorialId: string;
        purpose: 'invite' | 'access';
        inviteId?: string | null;
        guestName?: string | null;
        createdBy?: string | null;
        expiresAt: Date;
      },
    ): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await repo.insertLinkToken(q, {
        memorialId: opts.memorialId,
        tokenHash: sha256(token),
        purpose: opts.purpose,
        inviteId: opts.inviteId ?? null,
        guestName: opts.guestName ?? null,
        createdBy: opts.createdBy ?? null,
        expiresAt: opts.expiresAt,
      });
      return token;
    },

    /** The invite's unused links stop working (accepted or resent); guest tokens already issued stay. */
    expireInviteLinks: (q: Queryable, inviteId: string) => repo.expireInviteLinks(q, inviteId),
    /** A revoked invite: its unused links stop working and the guest tokens from used ones are refused. */
    endInviteLinks: (q: Queryable, inviteId: string) => repo.endInviteLinks(q, inviteId),
  };
}
export type GuestService = ReturnType<typeof guestService>;
