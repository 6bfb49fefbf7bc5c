import type { TakedownItemType, TakedownItems, TakedownReport, takedownItemTypes } from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, conflict, forbidden } from '../../lib/errors.ts';
import { secretMac } from '../../lib/secret-mac.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, type MemorialAccess } from '../../shared/memorial-access.ts';
import { canSeeMemory } from '../../shared/memory-policy.ts';
import { isUuid } from '../../shared/pagination.ts';
import { requireTeamMember } from '../../shared/team.ts';
import { ownersHiddenMail, ownersReportMail, teamReportMail } from './mails.ts';
import { takedownRepository, type ItemFacts } from './repository.ts';

/** Reports one address may make in an hour, and of one item in a day; reports of one item a day in all. */
export const REPORTS_PER_ADDRESS_PER_HOUR = 5;
export const REPORTS_PER_ITEM_PER_DAY = 20;

const itemNotFound = () =>
  new AppError(404, 'ITEM_NOT_FOUND', 'Dit onderdeel bestaat niet (meer) of je hebt er geen toegang toe.');
const rateLimited = (message: string) => new AppError(429, 'RATE_LIMITED', message);

type ItemType = (typeof takedownItemTypes)[number];
const isItemType = (t: string): t is ItemType => t === 'memory' || t === 'media';

/**
 * 'Melden' (docs/privacy.md): anyone who can see a memory or a photo reports it with a
 * reason; the owners and the team are mailed; the team hides it at once (owners may hide it too), for
 * everyone but the owners, who see it in their list with who hid it and why. Every step is in the audit log.
 */
export function takedownService(deps: Pick<Deps, 'db' | 'outbox' | 'config'>) {
  const { db, outbox, config } = deps;
  const access = memorialAccessService(db);
  const repo = takedownRepository(db);
  const reporterMac = secretMac(db, 'takedown-reporter-key');

  /** The item, if the caller may see it; anything else answers like a missing item. */
  async function visibleItem(caller: Caller, itemType: string, itemId: string) {
    const facts = isItemType(itemType) && isUuid(itemId) ? await repo.facts(itemType, itemId) : undefined;
    if (!facts) throw itemNotFound();
    const acc = await access.resolve(caller, facts.memorialId);
    if (!acc?.role) throw itemNotFound();
    if (facts.hiddenBy && acc.role !== 'owner') throw itemNotFound();
    if (facts.memory && !canSeeMemory(caller, acc, facts.memory)) throw itemNotFound();
    return { facts, acc };
  }

  const auditAction = (t: TakedownItemType, verb: string) => `${t === 'memory' ? 'memory' : 'media'}.${verb}`;

  async function hide(caller: Caller, facts: ItemFacts, by: 'team' | 'owner', reason: string) {
    await db.transaction(async (tx) => {
      const r = takedownRepository(tx);
      if (!(await r.hide(facts.itemType, facts.id, by, reason)))
        throw conflict(
          facts.hiddenBy === 'team' ? 'Ons team heeft dit al verborgen.' : 'Dit onderdeel is al verborgen.',
        );
      await r.closeReports(facts.itemType, facts.id, caller.kind === 'user' ? caller.userId : null);
      await recordAudit(tx, {
        memorialId: facts.memorialId,
        actor: caller,
        action: auditAction(facts.itemType, 'hidden'),
        targetType: facts.itemType,
        targetId: facts.id,
        details: { by, reason },
      });
      if (by === 'team') {
        const memorialName = await r.memorialName(facts.memorialId);
        for (const owner of await r.ownerAddresses(facts.memorialId))
          await outbox.enqueue(
            tx,
            ownersHiddenMail({
              to: owner.email,
              name: owner.name,
              memorialName,
              itemType: facts.itemType,
              reason,
            }),
          );
      }
    });
  }

  async function unhide(caller: Caller, facts: ItemFacts, by: 'team' | 'owner') {
    await db.transaction(async (tx) => {
      const r = takedownRepository(tx);
      if (!(await r.unhide(facts.itemType, facts.id))) throw conflict('Dit onderdeel is niet verborgen.');
      await recordAudit(tx, {
        memorialId: facts.memorialId,
        actor: caller,
        action: auditAction(facts.itemType, 'unhidden'),
        targetType: facts.itemType,
        targetId: facts.id,
        details: { by },
      });
    });
  }

  async function teamItem(caller: Caller, itemType: string, itemId: string) {
    await requireTeamMember(deps, caller);
    const facts = isItemType(itemType) && isUuid(itemId) ? await repo.facts(itemType, itemId) : undefined;
    if (!facts) throw itemNotFound();
    return facts;
  }

  async function ownerItem(caller: Caller, itemType: string, itemId: string) {
    const { facts, acc } = await visibleItem(caller, itemType, itemId);
    if (acc.role !== 'owner')
      throw forbidden('Alleen de eigenaren van de pagina en ons team kunnen dit verbergen.');
    return { facts, acc: acc as MemorialAccess };
  }

  return {
    /**
     * A report: anyone who can see the item. Limited per address (a keyed hash of it, never the address):
     * REPORTS_PER_ADDRESS_PER_HOUR in all, one per item a day; and REPORTS_PER_ITEM_PER_DAY per item from
     * everyone. The owners and the team are mailed for the first open report of an item only.
     */
    async report(caller: Caller, input: TakedownReport, ip: string): Promise<{ received: true }> {
      const { facts } = await visibleItem(caller, input.itemType, input.itemId);
      const reporterKey = (await reporterMac.macFn())(`address:${ip}`);
      const counts = await repo.reportCounts(reporterKey, facts.id);
      if (counts.item > 0) throw rateLimited('Je hebt dit onderdeel al gemeld. Ons team kijkt ernaar.');
      if (counts.hour >= REPORTS_PER_ADDRESS_PER_HOUR || counts.item_total >= REPORTS_PER_ITEM_PER_DAY)
        throw rateLimited('Te veel meldingen. Probeer het later opnieuw.');
      const details = input.details?.trim() ? input.details.trim() : null;
      await db.transaction(async (tx) => {
        const r = takedownRepository(tx);
        const reportId = await r.insertReport({
          memorialId: facts.memorialId,
          itemType: facts.itemType,
          itemId: facts.id,
          reason: input.reason,
          details,
          reporterUserId: caller.kind === 'user' ? caller.userId : null,
          reporterKey,
        });
        await recordAudit(tx, {
          memorialId: facts.memorialId,
          actor: caller,
          action: auditAction(facts.itemType, 'reported'),
          targetType: facts.itemType,
          targetId: facts.id,
          details: { reason: input.reason, reportId },
        });
        if (counts.item_open > 0) return;
        const memorialName = await r.memorialName(facts.memorialId);
        for (const owner of await r.ownerAddresses(facts.memorialId))
          await outbox.enqueue(
            tx,
            ownersReportMail({
              to: owner.email,
              name: owner.name,
              memorialName,
              memorialId: facts.memorialId,
              itemType: facts.itemType,
              reason: input.reason,
              appUrl: config.APP_URL,
            }),
          );
        if (config.ADMIN_EMAILS.length > 0)
          await outbox.enqueue(
            tx,
            teamReportMail({
              to: config.ADMIN_EMAILS,
              memorialName,
              itemType: facts.itemType,
              itemId: facts.id,
              reason: input.reason,
              details,
              appUrl: config.APP_URL,
            }),
          );
      });
      return { received: true };
    },

    /** The team's list: reported or hidden items on every page, open reports first. */
    async teamList(caller: Caller): Promise<TakedownItems> {
      await requireTeamMember(deps, caller);
      return { items: await repo.items(null, 200) };
    },

    async teamHide(caller: Caller, itemType: string, itemId: string, reason: string) {
      const facts = await teamItem(caller, itemType, itemId);
      await hide(caller, facts, 'team', reason);
      return { items: await repo.items(facts.memorialId, 200) };
    },

    async teamUnhide(caller: Caller, itemType: string, itemId: string) {
      const facts = await teamItem(caller, itemType, itemId);
      await unhide(caller, facts, 'team');
      return { items: await repo.items(facts.memorialId, 200) };
    },

    /** The owners' list for one page: what was reported or hidden there, and by whom and why. */
    async memorialList(caller: Caller, memorialId: string): Promise<TakedownItems> {
      await access.require(caller, memorialId, 'owner');
      return { items: await repo.items(memorialId, 200) };
    },

    /** An owner hides an item on their own page (moderation of their own). */
    async ownerHide(caller: Caller, itemType: string, itemId: string, reason: string) {
      const { facts } = await ownerItem(caller, itemType, itemId);
      await hide(caller, facts, 'owner', reason);
      return { items: await repo.items(facts.memorialId, 200) };
    },

    /** An owner shows again what they hid; what the team hid, only the team shows again. */
    async ownerUnhide(caller: Caller, itemType: string, itemId: string) {
      const { facts } = await ownerItem(caller, itemType, itemId);
      if (facts.hiddenBy === 'team')
        throw forbidden('Ons team heeft dit verborgen. Neem contact met ons op als je het terug wilt.');
      await unhide(caller, facts, 'owner');
      return { items: await repo.items(facts.memorialId, 200) };
    },
  };
}
