import { ACCESS_LINK_TTL_DAYS, routes, type accessCodeMailSchema } from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError, recipientMailLimitReached, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { accessCodeCrypto } from '../../shared/access-code.ts';
import { accessMail } from './mails.ts';
import { guestRepository } from './repository.ts';
import { guestService } from './service.ts';

/** Owners and editors mail the access code, with a one-time link, to someone who should see the page. */
export function accessMailService(deps: Pick<Deps, 'db' | 'config' | 'outbox'>) {
  const { db, config, outbox } = deps;
  const access = memorialAccessService(db);
  const codes = accessCodeCrypto(db);
  const guests = guestService(deps);

  return {
    async send(caller: Caller, memorialId: string, input: z.output<typeof accessCodeMailSchema>) {
      const acc = await access.require(caller, memorialId, 'editor');
      if (caller.kind !== 'user') throw unauthorized();
      if (acc.status !== 'active') {
        throw new AppError(
          409,
          'MEMORIAL_NOT_ACTIVE',
          'Publiceer de pagina eerst; daarna kunnen gasten hem met de toegangscode openen.',
        );
      }
      const memorial = (await guestRepository(db).memorialForAccessMail(memorialId))!;
      if (memorial.invite_only) {
        throw new AppError(
          409,
          'MEMORIAL_INVITE_ONLY',
          'Deze pagina is alleen op uitnodiging: er is geen toegangscode om te mailen. Nodig de persoon uit.',
        );
      }
      const accessCode = await codes.decrypt(memorial.access_code_encrypted);
      const email = input.email.toLowerCase();
      const linkExpiresAt = new Date(Date.now() + ACCESS_LINK_TTL_DAYS * 24 * 3600_000);
      await db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        const link = await guests.createLinkToken(tx, {
          memorialId,
          purpose: 'access',
          guestName: input.name ?? null,
          createdBy: caller.userId,
          expiresAt: linkExpiresAt,
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.access_code_mailed',
          details: { email },
        });
        const queued = await outbox.enqueueLimited(
          tx,
          accessMail({
            to: email,
            recipientName: input.name ?? null,
            senderName: caller.name ?? null,
            memorialName: `${memorial.first_name} ${memorial.last_name}`,
            accessCode,
            linkUrl: `${config.APP_URL}${routes.memorial(memorialId)}#gasttoken=${link}`,
            // Names the memorial: the code typed there is compared with this page only (docs/security.md).
            formUrl: `${config.APP_URL}${routes.privatePage}?pagina=${memorialId}`,
            linkExpiresAt,
          }),
          'invitation',
        );
        // Thrown inside the transaction: the link and the audit row are not kept either.
        if (!queued) throw recipientMailLimitReached();
      });
      // Queued with the link; it goes out once the mail server takes it.
      return { mailSent: true, linkExpiresAt: linkExpiresAt.toISOString() };
    },
  };
}
