import {
  aiDraftErrorCodes,
  biographyPeriods,
  type AiDraftEvent,
  type AiDraftInfo,
  type AiDraftRequest,
} from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { planAllows, planPolicy, planReadOnly } from '../../shared/plans.ts';
import { dutchDate, draftMessages, parseDraft, type DraftSources } from './ai-draft-text.ts';
import { endpointHost, LlmError, streamChat, type ChatMessage, type LlmSettings } from './llm.ts';
import { keepsakesRepository } from './repository.ts';

/** A draft longer than this is cut off as a failure (a model that does not stop). */
const DRAFT_MAX_CHARS = 40_000;

const questions = new Map(biographyPeriods.flatMap((p) => p.questions.map((q) => [q.key, q.text])));

const disabled = () =>
  new AppError(
    409,
    aiDraftErrorCodes.disabled,
    'Een concept laten schrijven met AI staat op deze server uit: er is geen AI-dienst ingesteld. Je kunt het levensverhaal wel zelf schrijven of maken uit de vragenlijst.',
  );
const premiumOnly = () =>
  new AppError(
    403,
    aiDraftErrorCodes.planFeature,
    'Een concept laten schrijven met AI hoort bij Premium. Deze pagina heeft het Basis-abonnement; kies Premium om het te gebruiken.',
  );

/** The Dutch message for a failed endpoint; nothing was changed in any case. */
export function providerMessage(err: unknown): string {
  const kind = err instanceof LlmError ? err.kind : 'network';
  const tail = 'Er is niets veranderd; probeer het later opnieuw.';
  switch (kind) {
    case 'refused':
      return `De AI-dienst weigerde de aanvraag: de sleutel wordt niet geaccepteerd. Vraag de beheerder van Aandenken de instellingen na te kijken. Er is niets veranderd.`;
    case 'http':
      return `De AI-dienst gaf een fout${err instanceof LlmError && err.status ? ` (HTTP ${err.status})` : ''}. ${tail}`;
    case 'timeout':
      return `De AI-dienst antwoordde niet op tijd. ${tail}`;
    case 'dropped':
      return `De verbinding met de AI-dienst viel weg voordat het concept af was. ${tail}`;
    case 'protocol':
      return `De AI-dienst gaf een antwoord dat we niet kunnen lezen. ${tail}`;
    default:
      return `De AI-dienst is niet bereikbaar. ${tail}`;
  }
}

export interface PreparedDraft {
  settings: LlmSettings;
  host: string;
  sources: DraftSources;
  messages: ChatMessage[];
}

/**
 * The AI-assisted draft (Premium; docs/keepsakes.md 'AI-assisted draft'): owners and
 * editors pick answers and published memories; only those, with the person's name, dates and places, go
 * to the configured endpoint. The draft streams back and is stored nowhere: it replaces nothing.
 */
export function aiDraftService(deps: Pick<Deps, 'db' | 'config'>) {
  const { db, config } = deps;
  const access = memorialAccessService(db);
  const repo = keepsakesRepository(db);
  const plan = planPolicy({ trialDays: config.TRIAL_DAYS });
  const host = config.LLM_BASE_URL ? endpointHost(config.LLM_BASE_URL) : null;

  return {
    async info(caller: Caller, memorialId: string): Promise<AiDraftInfo> {
      await access.require(caller, memorialId, 'editor');
      const state = await plan.stateOf(db, memorialId);
      const [answers, memories, html] = await Promise.all([
        repo.listAnswers(memorialId),
        repo.publishedMemories(memorialId),
        repo.biographyHtml(memorialId),
      ]);
      const byKey = new Map(answers.map((a) => [a.question_key, a.text]));
      return {
        memorialId,
        enabled: config.aiDraftEnabled,
        planAllows: planAllows(state, 'aiBiography'),
        endpointHost: config.aiDraftEnabled ? host : null,
        model: config.aiDraftEnabled ? config.LLM_MODEL! : null,
        answers: [...questions]
          .filter(([key]) => (byKey.get(key) ?? '').trim())
          .map(([key, question]) => ({ questionKey: key, question, text: byKey.get(key)!.trim() })),
        memories: memories.map((m) => ({
          id: m.id,
          yearLabel: m.year_label,
          body: m.body,
          author: m.author,
        })),
        hasBiography: html.trim() !== '',
      };
    },

    /** The checks, then the sources the family chose; throws a 4xx before anything is sent. */
    async prepare(caller: Caller, memorialId: string, body: AiDraftRequest): Promise<PreparedDraft> {
      await access.require(caller, memorialId, 'editor');
      const state = await plan.stateOf(db, memorialId);
      if (state.readOnly) throw planReadOnly();
      if (!planAllows(state, 'aiBiography')) throw premiumOnly();
      if (!config.aiDraftEnabled) throw disabled();

      const [answers, memories, person] = await Promise.all([
        repo.listAnswers(memorialId),
        repo.publishedMemories(memorialId),
        repo.person(memorialId),
      ]);
      const chosenKeys = new Set(body.answerKeys);
      const chosenMemories = new Set(body.memoryIds);
      const byKey = new Map(answers.map((a) => [a.question_key, a.text.trim()]));
      const unknownAnswer = body.answerKeys.find((k) => !questions.has(k) || !byKey.get(k));
      const unknownMemory = body.memoryIds.find((id) => !memories.some((m) => m.id === id));
      if (unknownAnswer || unknownMemory) {
        throw new AppError(
          400,
          aiDraftErrorCodes.noSources,
          unknownAnswer
            ? 'Een gekozen antwoord bestaat niet (meer) of is leeg. Laad de pagina opnieuw.'
            : 'Een gekozen herinnering staat niet (meer) op de pagina. Laad de pagina opnieuw.',
        );
      }
      if (chosenKeys.size + chosenMemories.size === 0) {
        throw new AppError(
          400,
          aiDraftErrorCodes.noSources,
          'Kies minstens één antwoord of herinnering om mee te sturen.',
        );
      }
      const place = (date: string | null, where: string | null) =>
        [dutchDate(date), where ? `in ${where}` : null].filter(Boolean).join(' ') || null;
      const sources: DraftSources = {
        name: `${person!.first_name} ${person!.last_name}`.trim(),
        born: place(person!.birth_date, person!.birth_place),
        died: place(person!.death_date, person!.death_place),
        answers: [...questions]
          .filter(([key]) => chosenKeys.has(key))
          .map(([key, question]) => ({ key, question, text: byKey.get(key)! })),
        memories: memories
          .filter((m) => chosenMemories.has(m.id))
          .map((m) => ({ id: m.id, yearLabel: m.year_label, body: m.body })),
      };
      await recordAudit(db, {
        memorialId,
        actor: caller,
        action: 'memorial.ai_draft_requested',
        details: { answers: sources.answers.length, memories: sources.memories.length, host },
      });
      return {
        settings: {
          baseUrl: config.LLM_BASE_URL!,
          apiKey: config.LLM_API_KEY!,
          model: config.LLM_MODEL!,
          timeoutMs: config.LLM_TIMEOUT_MS,
        },
        host: host!,
        sources,
        messages: draftMessages(sources),
      };
    },

    /** The stream's events: start, the text as it comes, then the paragraphs with sources and flags, or an error. */
    async *run(p: PreparedDraft, signal: AbortSignal): AsyncGenerator<AiDraftEvent> {
      yield { type: 'start', endpointHost: p.host, model: p.settings.model };
      let text = '';
      try {
        for await (const piece of streamChat(p.settings, p.messages, signal)) {
          text += piece;
          if (text.length > DRAFT_MAX_CHARS) throw new LlmError('protocol', 'too long');
          yield { type: 'delta', text: piece };
        }
      } catch (err) {
        yield { type: 'error', code: aiDraftErrorCodes.provider, message: providerMessage(err) };
        return;
      }
      if (signal.aborted) return;
      const paragraphs = parseDraft(text, p.sources);
      if (paragraphs.length === 0) {
        yield {
          type: 'error',
          code: aiDraftErrorCodes.provider,
          message: 'De AI-dienst gaf een leeg antwoord. Er is niets veranderd; probeer het opnieuw.',
        };
        return;
      }
      yield { type: 'done', paragraphs };
    },
  };
}
