import {
  BIOGRAPHY_MAX_CHARS,
  biographyPeriods,
  biographyQuestionKeys,
  type Biography,
  type BiographyAnswer,
  type BiographyTemplate,
} from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/mail-format.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { sanitizeBiography } from '../../shared/sanitize-biography.ts';
import { memorialService } from '../memorials/service.ts';
import { keepsakesRepository, type AnswerRow } from './repository.ts';

const toAnswer = (r: AnswerRow): BiographyAnswer => ({
  questionKey: r.question_key,
  text: r.text,
  updatedAt: new Date(r.updated_at).toISOString(),
  updatedBy: r.updated_by,
});

/**
 * A first biography from the answers: plain paragraphs in the order of the periods (a blank line in an
 * answer starts a new paragraph, a single line break stays). Escaped, then through the biography allow-list.
 */
export function composeBiography(answers: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const period of biographyPeriods) {
    for (const q of period.questions) {
      const text = answers.get(q.key)?.trim();
      if (!text) continue;
      for (const para of text.split(/\n\s*\n/)) {
        const p = para.trim();
        if (p) parts.push(`<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`);
      }
    }
  }
  return sanitizeBiography(parts.join('\n'));
}

/** Keepsakes (every plan; docs/keepsakes.md): the guided biography template, owners and editors. */
export function keepsakesService(deps: Pick<Deps, 'db' | 'responseCache'>) {
  const { db } = deps;
  const access = memorialAccessService(db);
  const repo = keepsakesRepository(db);
  const biographies = memorialService(deps);

  return {
    async getTemplate(caller: Caller, memorialId: string): Promise<BiographyTemplate> {
      await access.require(caller, memorialId, 'editor');
      const rows = await repo.listAnswers(memorialId);
      const html = await repo.biographyHtml(memorialId);
      return { memorialId, answers: rows.map(toAnswer), hasBiography: html.trim() !== '' };
    },

    async saveAnswer(
      caller: Caller,
      memorialId: string,
      key: string,
      text: string,
    ): Promise<BiographyAnswer> {
      await access.require(caller, memorialId, 'editor');
      if (!biographyQuestionKeys.includes(key)) throw notFound('Deze vraag bestaat niet.');
      const row = await repo.saveAnswer(memorialId, key, text, caller.kind === 'user' ? caller.userId : null);
      return toAnswer(row);
    },

    /** Writes the composed biography; an existing one is replaced only with `replace: true` (else 409). */
    async generate(caller: Caller, memorialId: string, replace: boolean): Promise<Biography> {
      await access.require(caller, memorialId, 'editor');
      const rows = await repo.listAnswers(memorialId);
      const html = composeBiography(new Map(rows.map((r) => [r.question_key, r.text])));
      if (!html)
        throw badRequest('Beantwoord eerst minstens één vraag; dan maken we er een levensverhaal van.');
      if (html.length > BIOGRAPHY_MAX_CHARS) {
        throw badRequest(
          `Het levensverhaal wordt te lang (maximaal ${BIOGRAPHY_MAX_CHARS} tekens). Maak de antwoorden korter.`,
        );
      }
      // One transaction: the check for an existing biography, the write and both audit entries, under the
      // memorial's lock (so a biography saved meanwhile is never overwritten unasked).
      await db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        const txRepo = keepsakesRepository(tx);
        await txRepo.lockMemorial(memorialId);
        const existing = await txRepo.biographyHtml(memorialId);
        const replaced = existing.trim() !== '';
        if (replaced && !replace) {
          throw conflict(
            'Er staat al een levensverhaal op de pagina. Bevestig dat je het wilt vervangen door de tekst uit de vragenlijst.',
          );
        }
        await txRepo.setBiography(memorialId, html, caller.kind === 'user' ? caller.userId : null);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.biography_updated',
          details: { length: html.length, removedMarkup: false },
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.biography_generated',
          details: { answers: rows.filter((r) => r.text.trim()).length, replaced },
        });
      });
      return biographies.getBiography(caller, memorialId);
    },
  };
}
