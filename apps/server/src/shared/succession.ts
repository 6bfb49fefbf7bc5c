import { createHash, randomBytes } from 'node:crypto';
import { routes } from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import type { Caller } from '../lib/auth.ts';
import type { Deps } from '../lib/deps.ts';
import { dateNl, mailName } from '../lib/mail-format.ts';
import { buildMail } from '../lib/mail-builder.ts';
import type { Mail } from '../lib/mailer.ts';
import { recordAudit } from './audit.ts';

/** Days an ownership invitation (to a successor's or a family member's address) stays valid. */
export const OWNERSHIP_INVITE_DAYS = 30;

export type HandOverReason = 'account_deleted' | 'inactive' | 'team';
export type HandOverOutcome = 'owner' | 'invited';

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/**
 * Making someone owner of a page when its owner is gone (account deleted, a year silent) or on the team's
 * decision. Shared by the account and successors modules. `handOverTo` gives the page to an account
 * (proven address) or mails an ownership invitation; `handOverToSuccessor` does that for the named successor.
 */
export function succession(deps: Pick<Deps, 'outbox' | 'config'>) {
  /** A verified account with this address (anyone can register any address, so an unproven one is not enough). */
  async function verifiedUserWith(tx: Queryable, email: string): Promise<string | null> {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT u.id FROM users u JOIN accounts a ON a.id::text = u.id
        WHERE lower(a.email) = $1 AND a.email_verified AND u.deleted_at IS NULL
        LIMIT 1`,
      [email.toLowerCase()],
    );
    return rows[0]?.id ?? null;
  }

  async function makeOwner(tx: Queryable, memorialId: string, userId: string) {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'owner')
       ON CONFLICT (memorial_id, user_id) DO UPDATE SET role = 'owner', updated_at = now()
       RETURNING id`,
      [memorialId, userId],
    );
    return rows[0]!.id;
  }

  async function invite(
    tx: Queryable,
    memorialId: string,
    email: string,
    invitedBy: string | null,
    reason: HandOverReason,
  ) {
    const code = randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + OWNERSHIP_INVITE_DAYS * 24 * 3_600_000);
    await tx.query(
      `UPDATE guest_invites SET revoked_at = now()
        WHERE memorial_id = $1 AND lower(email) = $2 AND revoked_at IS NULL AND accepted_at IS NULL`,
      [memorialId, email],
    );
    const { rows } = await tx.query<{ id: string; name: string }>(
      `INSERT INTO guest_invites (memorial_id, email, role, code_hash, invited_by, expires_at, last_sent_at, send_count)
       VALUES ($1, $2, 'owner', $3, $4, $5, now(), 1)
       RETURNING id, (SELECT first_name || ' ' || last_name FROM memorials WHERE id = $1) AS name`,
      [memorialId, email, sha256(code), invitedBy, expiresAt],
    );
    // An address nobody has proven: counted against it like every invitation; over the limit it is left out
    // (the invitation stays and the team can send it again through a hand-over).
    await deps.outbox.enqueueLimited(
      tx,
      ownershipInviteMail({
        to: email,
        memorialName: rows[0]!.name,
        acceptUrl: `${deps.config.APP_URL}${routes.invite(code)}`,
        expiresAt,
        reason,
      }),
      'invitation',
    );
    return rows[0]!.id;
  }

  /** Gives the page to the address: its verified account becomes owner, or an ownership invitation is mailed. */
  async function handOverTo(
    tx: Queryable,
    o: { memorialId: string; email: string; actor: Caller | null; reason: HandOverReason; note?: string },
  ): Promise<HandOverOutcome> {
    const email = o.email.trim().toLowerCase();
    const userId = await verifiedUserWith(tx, email);
    const invitedBy = o.actor?.kind === 'user' ? o.actor.userId : null;
    if (userId) {
      const memberId = await makeOwner(tx, o.memorialId, userId);
      await recordAudit(tx, {
        memorialId: o.memorialId,
        actor: o.actor,
        action: o.reason === 'team' ? 'memorial.handed_over' : 'member.owner_succeeded',
        targetType: 'member',
        targetId: memberId,
        details: { userId, email, reason: o.reason, outcome: 'owner', ...(o.note ? { note: o.note } : {}) },
      });
      return 'owner';
    }
    const inviteId = await invite(tx, o.memorialId, email, invitedBy, o.reason);
    await recordAudit(tx, {
      memorialId: o.memorialId,
      actor: o.actor,
      action: o.reason === 'team' ? 'memorial.handed_over' : 'successor.invited',
      targetType: 'invite',
      targetId: inviteId,
      details: { email, reason: o.reason, outcome: 'invited', ...(o.note ? { note: o.note } : {}) },
    });
    return 'invited';
  }

  return {
    handOverTo,

    /**
     * The named successor takes the page over (and is no longer named): a member becomes owner; an address
     * becomes owner through its verified account or gets an ownership invitation. Null when none is named,
     * or the named member is gone.
     */
    async handOverToSuccessor(
      tx: Queryable,
      memorialId: string,
      reason: Exclude<HandOverReason, 'team'>,
      leaving: string | null,
    ): Promise<HandOverOutcome | null> {
      const { rows } = await tx.query<{ user_id: string | null; email: string | null }>(
        'DELETE FROM memorial_successors WHERE memorial_id = $1 RETURNING user_id, email',
        [memorialId],
      );
      const s = rows[0];
      if (!s) return null;
      if (s.user_id) {
        if (s.user_id === leaving) return null;
        const { rows: alive } = await tx.query(
          `SELECT 1 FROM memorial_members mm JOIN users u ON u.id = mm.user_id
            WHERE mm.memorial_id = $1 AND mm.user_id = $2 AND u.deleted_at IS NULL`,
          [memorialId, s.user_id],
        );
        if (alive.length === 0) return null;
        const memberId = await makeOwner(tx, memorialId, s.user_id);
        await recordAudit(tx, {
          memorialId,
          actor: null,
          action: 'member.owner_succeeded',
          targetType: 'member',
          targetId: memberId,
          details: { userId: s.user_id, reason, successor: true, outcome: 'owner' },
        });
        return 'owner';
      }
      return handOverTo(tx, { memorialId, email: s.email!, actor: null, reason });
    },
  };
}

/**
 * To an address that is to own a page: our words and the memorial's name only (the address is not proven).
 * No account has proven this address, so no name for it is known: 'Hallo,'.
 */
export function ownershipInviteMail(o: {
  to: string;
  memorialName: string;
  acceptUrl: string;
  expiresAt: Date;
  reason: HandOverReason;
}): Mail {
  const name = mailName(o.memorialName);
  const page = name ? `de gedenkpagina van ${name}` : 'een gedenkpagina';
  return buildMail({
    to: o.to,
    name: null,
    subject: `Je wordt eigenaar van ${page}`,
    body: [
      o.reason === 'team'
        ? `Op verzoek van de familie draagt ons team ${page} aan jou over.`
        : `Je bent aangewezen als opvolger van de beheerder van ${page}. De beheerder is er niet meer om de pagina te beheren, dus de pagina gaat nu naar jou.`,
      'Neem de pagina over via deze link (je logt in of maakt een account aan met dit e-mailadres):',
      { link: o.acceptUrl, label: 'Pagina overnemen' },
      `De link is geldig tot en met ${dateNl(o.expiresAt)}. Tot die tijd blijft de pagina bewaard.\nVerwachtte je dit bericht niet? Neem dan contact met ons op via het contactformulier op onze website.`,
    ],
  });
}
