import * as z from 'zod/mini';
import { pageOf, pageRequestShape } from './memorial.ts';

/**
 * Actions in the audit log, `<subject>.<verb>`. The memorial domain writes memorial.*, member.*,
 * invite.*; memories, media and candles write memory.*, media.*, candle.*.
 */
export const auditActionLabels: Record<string, string> = {
  'memorial.created': 'Pagina aangemaakt',
  'memorial.details_updated': 'Gegevens gewijzigd',
  'memorial.published': 'Pagina gepubliceerd',
  'memorial.archived': 'Pagina gearchiveerd',
  'memorial.reactivated': 'Pagina opnieuw actief',
  'memorial.deleted': 'Pagina verwijderd (30 dagen terug te zetten)',
  'memorial.restored': 'Verwijderde pagina teruggezet',
  'memorial.visibility_changed': 'Zichtbaarheid gewijzigd',
  'memorial.invite_only_changed': 'Alleen op uitnodiging gewijzigd',
  'memorial.search_engines_changed': 'Vindbaarheid via zoekmachines gewijzigd',
  'memorial.visitor_memories_changed': 'Herinneringen van bezoekers aan of uit gezet',
  'memorial.biography_updated': 'Levensverhaal gewijzigd',
  'memorial.biography_generated': 'Levensverhaal gemaakt uit de vragenlijst',
  'memorial.ai_draft_requested': 'Concept levensverhaal met AI gevraagd',
  'memorial.printed_book_requested': 'Gedrukt boek aangevraagd',
  'memorial.presentation_music_added': 'Muziek voor de presentatie toegevoegd',
  'memorial.presentation_music_removed': 'Muziek van de presentatie verwijderd',
  'memorial.presentation_settings_updated': 'Presentatie samengesteld',
  'memorial.presentation_video_requested': 'Video van de presentatie aangevraagd',
  'memorial.access_code_regenerated': 'Nieuwe toegangscode gemaakt',
  'memorial.access_code_mailed': 'Toegangscode gemaild',
  'member.role_changed': 'Rol gewijzigd',
  'member.removed': 'Lid verwijderd',
  'member.left': 'Lid heeft de pagina verlaten',
  'invite.sent': 'Uitnodiging verstuurd',
  'invite.resent': 'Uitnodiging opnieuw verstuurd',
  'invite.revoked': 'Uitnodiging ingetrokken',
  'invite.accepted': 'Uitnodiging aangenomen',
};

export const auditQuerySchema = z.object({
  limit: z._default(
    z.coerce
      .number({ error: 'Aantal moet een getal zijn' })
      .check(
        z.int('Aantal moet een geheel getal zijn'),
        z.gte(1, 'Aantal moet minstens 1 zijn'),
        z.lte(100, 'Aantal mag maximaal 100 zijn'),
      ),
    20,
  ),
  cursor: pageRequestShape.cursor,
});

export const auditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  actor: z.object({
    kind: z.enum(['user', 'guest', 'anonymous', 'system']),
    userId: z.nullable(z.string()),
    name: z.nullable(z.string()),
  }),
  targetType: z.nullable(z.string()),
  targetId: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pageOf(auditEntrySchema);
