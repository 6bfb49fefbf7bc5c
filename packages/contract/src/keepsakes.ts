import * as z from 'zod/mini';
import { apiPaths } from './api-paths.ts';
import { endpoint } from './endpoint.ts';
import { biographySchema, idParamSchema } from './memorial.ts';

/**
 * Keepsakes (every plan): the guided biography template. Questions per period of life, answered
 * in steps; the answers become a first biography that the family rewrites (docs/keepsakes.md).
 */
export const BIOGRAPHY_ANSWER_MAX_CHARS = 4000;

export interface BiographyQuestion {
  key: string;
  text: string;
  hint?: string;
}
export interface BiographyPeriod {
  key: string;
  title: string;
  questions: readonly BiographyQuestion[];
}

export const biographyPeriods: readonly BiographyPeriod[] = [
  {
    key: 'jeugd',
    title: 'Jeugd',
    questions: [
      { key: 'jeugd-plek', text: 'Waar en in wat voor gezin groeide hij of zij op?' },
      {
        key: 'jeugd-herinnering',
        text: 'Welk verhaal uit de kindertijd werd in de familie vaak verteld?',
        hint: 'Een streek, een lievelingsplek, een huisdier: klein mag ook.',
      },
    ],
  },
  {
    key: 'opleiding-werk',
    title: 'Opleiding en werk',
    questions: [
      { key: 'werk-school', text: 'Welke school of opleiding volgde hij of zij, en wat bleef daarvan bij?' },
      { key: 'werk-beroep', text: 'Welk werk deed hij of zij, en waar was hij of zij trots op?' },
    ],
  },
  {
    key: 'liefde-gezin',
    title: 'Liefde en gezin',
    questions: [
      { key: 'gezin-liefde', text: 'Wie waren de grote liefdes in zijn of haar leven, en hoe begon het?' },
      {
        key: 'gezin-familie',
        text: 'Wat betekende familie voor hem of haar?',
        hint: 'Kinderen, kleinkinderen, broers en zussen, vrienden die familie werden.',
      },
    ],
  },
  {
    key: 'bezigheden',
    title: 'Wat hem of haar bezighield',
    questions: [
      { key: 'bezig-hobby', text: 'Waar kon hij of zij urenlang mee bezig zijn?' },
      { key: 'bezig-waarden', text: 'Wat vond hij of zij echt belangrijk in het leven?' },
      { key: 'bezig-typisch', text: 'Welke uitspraak of gewoonte was typisch voor hem of haar?' },
    ],
  },
  {
    key: 'laatste-jaren',
    title: 'De laatste jaren',
    questions: [
      { key: 'laatst-leven', text: 'Hoe zagen de laatste jaren eruit, en wat gaf hem of haar toen vreugde?' },
      { key: 'laatst-blijft', text: 'Wat neemt u van hem of haar mee, en wat wilt u dat anderen onthouden?' },
    ],
  },
];

export const biographyQuestionKeys: readonly string[] = biographyPeriods.flatMap((p) =>
  p.questions.map((q) => q.key),
);

export const biographyAnswerSchema = z.object({
  questionKey: z.string(),
  text: z.string(),
  updatedAt: z.iso.datetime(),
  updatedBy: z.nullable(z.string()).check(z.describe('Naam van wie het laatst wijzigde')),
});
export type BiographyAnswer = z.infer<typeof biographyAnswerSchema>;

export const biographyTemplateSchema = z.object({
  memorialId: z.uuid(),
  answers: z.array(biographyAnswerSchema),
  hasBiography: z.boolean().check(z.describe('Of de pagina al een levensverhaal heeft')),
});
export type BiographyTemplate = z.infer<typeof biographyTemplateSchema>;

export const biographyTemplateParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  questionKey: z.string().check(z.maxLength(100), z.describe('Sleutel van de vraag')),
});

export const biographyAnswerUpdateSchema = z.object({
  text: z
    .string({ error: 'Antwoord is ongeldig' })
    .check(
      z.maxLength(
        BIOGRAPHY_ANSWER_MAX_CHARS,
        `Een antwoord mag maximaal ${BIOGRAPHY_ANSWER_MAX_CHARS} tekens zijn`,
      ),
    ),
});
export type BiographyAnswerUpdate = z.infer<typeof biographyAnswerUpdateSchema>;

export const biographyGenerateSchema = z.object({
  replace: z._default(z.boolean({ error: 'Vervangen moet waar of onwaar zijn' }), false),
});
export type BiographyGenerate = z.infer<typeof biographyGenerateSchema>;

/**
 * AI-assisted draft (Premium feature `aiBiography`; docs/keepsakes.md 'AI-assisted
 * draft'): an OpenAI-compatible chat endpoint (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL) drafts a biography from
 * the answers and published memories the family picked. The draft streams in as NDJSON lines
 * (`AiDraftEvent`) and replaces nothing: the family accepts it by saving it as the biography.
 */
export const AI_DRAFT_MAX_MEMORIES = 40;

export const aiDraftErrorCodes = {
  /** LLM_BASE_URL, LLM_API_KEY and LLM_MODEL are not all set. */
  disabled: 'AI_DRAFT_DISABLED',
  /** The page's plan does not include the feature (Basis). */
  planFeature: 'PLAN_FEATURE',
  /** Nothing chosen to send, or a chosen item that does not exist. */
  noSources: 'AI_DRAFT_NO_SOURCES',
  /** The endpoint failed, refused, timed out or dropped the connection (sent as a stream event). */
  provider: 'AI_PROVIDER_ERROR',
} as const;

export const aiDraftMemorySchema = z.object({
  id: z.uuid(),
  yearLabel: z.string(),
  body: z.string(),
  author: z.string().check(z.describe('Wie de herinnering schreef (alleen op het scherm, niet verstuurd)')),
});
export type AiDraftMemory = z.infer<typeof aiDraftMemorySchema>;

export const aiDraftInfoSchema = z.object({
  memorialId: z.uuid(),
  enabled: z.boolean().check(z.describe('Of de server een AI-dienst heeft ingesteld')),
  planAllows: z.boolean().check(z.describe('Of het abonnement van de pagina het AI-concept bevat')),
  endpointHost: z.nullable(z.string()).check(z.describe('Waar de gekozen teksten naartoe gaan')),
  model: z.nullable(z.string()),
  answers: z.array(z.object({ questionKey: z.string(), question: z.string(), text: z.string() })),
  memories: z.array(aiDraftMemorySchema),
  hasBiography: z.boolean(),
});
export type AiDraftInfo = z.infer<typeof aiDraftInfoSchema>;

export const aiDraftRequestSchema = z.object({
  answerKeys: z
    .array(z.string().check(z.maxLength(100)), { error: 'Kies de antwoorden die mee mogen' })
    .check(z.maxLength(50)),
  memoryIds: z
    .array(z.string().check(z.maxLength(100)), { error: 'Kies de herinneringen die mee mogen' })
    .check(z.maxLength(AI_DRAFT_MAX_MEMORIES, `Kies hoogstens ${AI_DRAFT_MAX_MEMORIES} herinneringen`)),
});
export type AiDraftRequest = z.infer<typeof aiDraftRequestSchema>;

export const aiDraftSourceSchema = z.union([
  z.object({ kind: z.literal('answer'), key: z.string() }),
  z.object({ kind: z.literal('memory'), id: z.string() }),
]);
export type AiDraftSource = z.infer<typeof aiDraftSourceSchema>;

export const aiDraftParagraphSchema = z.object({
  text: z.string(),
  sources: z.array(aiDraftSourceSchema),
  /** Names and dates in the text that occur in none of the sources sent. */
  flagged: z.array(z.string()),
});
export type AiDraftParagraph = z.infer<typeof aiDraftParagraphSchema>;

/** One line of the draft's NDJSON stream. */
export const aiDraftEventSchema = z.union([
  z.object({ type: z.literal('start'), endpointHost: z.string(), model: z.string() }),
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), paragraphs: z.array(aiDraftParagraphSchema) }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type AiDraftEvent = z.infer<typeof aiDraftEventSchema>;

/** The biography questions' endpoints (owners and editors), each described once for the server and the web. */
export const biographyHelpEndpoints = {
  /** The answers so far. */
  template: endpoint({
    method: 'GET',
    path: apiPaths.biographyTemplate,
    params: idParamSchema,
    response: biographyTemplateSchema,
  }),
  /** One answer, saved while the person types. */
  saveAnswer: endpoint({
    method: 'PUT',
    path: apiPaths.biographyAnswer,
    params: biographyTemplateParamsSchema,
    body: biographyAnswerUpdateSchema,
    response: biographyAnswerSchema,
  }),
  /** The answers become the biography (an existing one only replaced with `replace: true`). */
  generate: endpoint({
    method: 'POST',
    path: apiPaths.biographyGenerate,
    params: idParamSchema,
    body: biographyGenerateSchema,
    response: biographySchema,
  }),
};
