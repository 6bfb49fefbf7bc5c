import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';
import { deceasedNamesSchema } from './memorial-concept.ts';
import { memberRoles, memorialStatuses, memorialVisibilities } from './roles.ts';

/** Pagination shared by every list of the memorial domain: an opaque keyset cursor and a bounded page. */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export const pageRequestShape = {
  limit: z
    ._default(
      z
        .number({ error: 'Aantal moet een getal zijn' })
        .check(
          z.int('Aantal moet een geheel getal zijn'),
          z.gte(1, 'Aantal moet minstens 1 zijn'),
          z.lte(PAGE_LIMIT_MAX, `Aantal mag maximaal ${PAGE_LIMIT_MAX} zijn`),
        ),
      PAGE_LIMIT_DEFAULT,
    )
    .check(z.describe(`Aantal per pagina (1-${PAGE_LIMIT_MAX}, standaard ${PAGE_LIMIT_DEFAULT})`)),
  cursor: z
    .nullish(z.string({ error: 'Ongeldige cursor' }).check(z.maxLength(500, 'Ongeldige cursor')))
    .check(z.describe('De nextCursor van de vorige pagina; leeg voor de eerste pagina')),
};
export const pageRequestSchema = z.object(pageRequestShape);
export type PageRequest = z.input<typeof pageRequestSchema>;

/** A page of items plus the cursor of the next page (null on the last page). */
export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });

/** Path ids: not validated as UUIDs by the schema; a malformed id answers 404 exactly like a missing one. */
export const idParamSchema = z.object({ id: z.string().check(z.maxLength(100), z.describe('UUID')) });
export const memorialIdParamSchema = z.object({
  memorialId: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
});

export const uuidField = (label: string) =>
  z.uuid({ error: (iss) => (iss.input === undefined ? `${label} is verplicht` : `${label} is ongeldig`) });

export const memorialStatusSchema = z.enum(memorialStatuses, { error: 'Kies een geldige status' });
export const memorialVisibilitySchema = z.enum(memorialVisibilities, { error: 'Kies zichtbaar of besloten' });
export const memorialAccessRoleSchema = z.enum([...memberRoles, 'visitor']);

export const memorialStatusLabels: Record<(typeof memorialStatuses)[number], string> = {
  concept: 'Concept',
  active: 'Gepubliceerd',
  archived: 'Gearchiveerd',
};
export const memorialVisibilityLabels: Record<(typeof memorialVisibilities)[number], string> = {
  private: 'Besloten',
  public: 'Openbaar',
};

export const MEMORIAL_NAME_MAX = 100;
export const MEMORIAL_PLACE_MAX = 100;
export const MEMORIAL_QUOTE_MAX = 280;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** A calendar date `YYYY-MM-DD`, not in the future; null clears it. */
export const dateField = (label: string) =>
  z.nullable(
    z.string({ error: `${label} is ongeldig` }).check(
      z.regex(isoDate, `${label} moet de vorm JJJJ-MM-DD hebben`),
      z.refine(isRealDate, `${label} bestaat niet`),
      z.refine((s) => s >= '1800-01-01', `${label} ligt te ver in het verleden`),
      z.refine((s) => s <= new Date().toISOString().slice(0, 10), `${label} mag niet in de toekomst liggen`),
    ),
  );

const optionalText = (label: string, max: number) =>
  z.nullable(
    z.pipe(
      z
        .string({ error: `${label} is ongeldig` })
        .check(z.trim(), z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`)),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  );

const nameField = (label: string) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(MEMORIAL_NAME_MAX, `${label} mag maximaal ${MEMORIAL_NAME_MAX} tekens zijn`),
      ...personNameChecks(),
    );

/** POST /memorial/concept: the deceased's names; the caller becomes owner. */
export const memorialConceptRequestSchema = deceasedNamesSchema;

export const memorialCountsSchema = z.object({
  memories: z.int().check(z.describe('Gepubliceerde herinneringen')),
  media: z.int().check(z.describe("Foto's en video's op de pagina")),
  candles: z.int().check(z.describe('Aangestoken kaarsjes en bloemen')),
  members: z.int().check(z.describe('Leden van de pagina')),
});
export type MemorialCounts = z.infer<typeof memorialCountsSchema>;

const memorialCore = {
  id: z.uuid(),
  slug: z
    .string()
    .check(z.describe('Het leesbare adres: /gedenkpagina/{slug}, bijvoorbeeld johanna-de-vries-1948-2024')),
  firstName: z.string(),
  lastName: z.string(),
  birthDate: z.nullable(z.string()).check(z.describe('JJJJ-MM-DD')),
  deathDate: z.nullable(z.string()).check(z.describe('JJJJ-MM-DD')),
  birthPlace: z.nullable(z.string()),
  deathPlace: z.nullable(z.string()),
  quote: z.nullable(z.string()),
  coverMediaId: z.nullable(z.uuid()),
  status: memorialStatusSchema,
  visibility: memorialVisibilitySchema,
  counts: memorialCountsSchema,
};

/** GET /memorial/{id}: what the caller may see, with their role; the access code only for owners and editors. */
export const memorialSchema = z.object({
  ...memorialCore,
  role: memorialAccessRoleSchema.check(
    z.describe("De rol van de aanvrager op deze pagina ('visitor' = bezoeker van een openbare pagina)"),
  ),
  accessCode: z
    .nullable(z.string())
    .check(z.describe('De 8-cijferige toegangscode; alleen voor eigenaren en redacteuren, anders null')),
  accessCodeVersion: z.nullable(z.int()).check(z.describe('Alleen voor eigenaren en redacteuren')),
  inviteOnly: z
    .boolean()
    .check(
      z.describe('Alleen op uitnodiging: geen toegangscode werkt, alleen uitnodigingen openen de pagina'),
    ),
  searchEngines: z
    .boolean()
    .check(
      z.describe('Vindbaar via zoekmachines: alleen een openbare pagina, alleen als de familie dat koos'),
    ),
  visitorMemories: z.optional(
    z
      .boolean()
      .check(
        z.describe(
          'Bezoekers van een openbare pagina mogen een herinnering achterlaten (na bevestiging van hun e-mailadres en goedkeuring door de familie)',
        ),
      ),
  ),
  publishedAt: z.nullable(z.iso.datetime()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  caredBy: z.optional(
    z
      .nullable(z.object({ name: z.string(), slug: z.string() }))
      .check(
        z.describe(
          'Verzorgd door: de uitvaartondernemer die de pagina maakte, alleen als de familie dat toont',
        ),
      ),
  ),
});
export type Memorial = z.infer<typeof memorialSchema>;

/** PUT /memorial: only the fields sent change; null clears an optional field. */
export const memorialUpdateSchema = z
  .object({
    id: uuidField('Gedenkpagina'),
    firstName: z.optional(nameField('Voornaam')),
    lastName: z.optional(nameField('Achternaam')),
    birthDate: z.optional(dateField('Geboortedatum')),
    deathDate: z.optional(dateField('Overlijdensdatum')),
    birthPlace: z.optional(optionalText('Geboorteplaats', MEMORIAL_PLACE_MAX)),
    deathPlace: z.optional(optionalText('Overlijdensplaats', MEMORIAL_PLACE_MAX)),
    quote: z.optional(optionalText('Citaat', MEMORIAL_QUOTE_MAX)),
    coverMediaId: z
      .optional(z.nullable(uuidField('Omslagfoto')))
      .check(z.describe('Een foto uit de eigen galerij; null haalt de omslagfoto weg')),
    status: z
      .optional(memorialStatusSchema)
      .check(z.describe('concept → active (publiceren), active → archived, archived → active')),
    visibility: z.optional(memorialVisibilitySchema),
    inviteOnly: z
      .optional(z.boolean({ error: 'Alleen op uitnodiging is ja of nee' }))
      .check(z.describe('Alleen de eigenaar: zonder toegangscode, alleen op uitnodiging')),
    searchEngines: z
      .optional(z.boolean({ error: 'Vindbaar via zoekmachines is ja of nee' }))
      .check(
        z.describe(
          'Alleen de eigenaar: een openbare pagina vindbaar via zoekmachines (sitemap, geen noindex)',
        ),
      ),
    visitorMemories: z
      .optional(z.boolean({ error: 'Herinneringen van bezoekers is ja of nee' }))
      .check(
        z.describe(
          'Eigenaar of redacteur: bezoekers van een openbare pagina mogen een herinnering achterlaten (standaard uit)',
        ),
      ),
  })
  .check(
    z.refine((v) => !(v.birthDate && v.deathDate && v.birthDate > v.deathDate), {
      message: 'Overlijdensdatum ligt voor de geboortedatum',
      path: ['deathDate'],
    }),
  );
export type MemorialUpdate = z.input<typeof memorialUpdateSchema>;

/** Allowed status changes (anything else is a 409). */
export const memorialStatusTransitions: Record<
  (typeof memorialStatuses)[number],
  readonly (typeof memorialStatuses)[number][]
> = {
  concept: ['active'],
  active: ['archived'],
  archived: ['active'],
};

/** GET /memorial/by-slug/{slug}: the page behind a readable address, for a caller who may see it. */
export const memorialSlugParamSchema = z.object({
  slug: z.string().check(z.maxLength(120), z.describe('Huidig of eerder adres van de pagina')),
});
export const memorialBySlugSchema = z.object({
  id: z.uuid(),
  slug: z
    .string()
    .check(z.describe('Het huidige adres; anders dan gevraagd als de naam sindsdien veranderde')),
});
export type MemorialBySlug = z.infer<typeof memorialBySlugSchema>;

/** A memorial in a list. */
export const memorialSummarySchema = z.object({
  ...memorialCore,
  publishedAt: z.nullable(z.iso.datetime()),
});
export type MemorialSummary = z.infer<typeof memorialSummarySchema>;

/** POST /memorial/query: public, published memorials, optionally searched by name. */
export const memorialQuerySchema = z.object({
  search: z.optional(
    z
      .string({ error: 'Zoekterm is ongeldig' })
      .check(z.trim(), z.maxLength(100, 'Zoekterm mag maximaal 100 tekens zijn')),
  ),
  ...pageRequestShape,
});
export const memorialQueryResultSchema = pageOf(memorialSummarySchema);

/** POST /memorial/query/partof: the caller's memorials with their role. */
export const memorialPartOfQuerySchema = z.object({
  status: z.optional(memorialStatusSchema),
  ...pageRequestShape,
});
export const memorialPartOfItemSchema = z.extend(memorialSummarySchema, {
  role: z.enum(memberRoles),
  memberId: z.uuid(),
  joinedAt: z.iso.datetime(),
});
export type MemorialPartOfItem = z.infer<typeof memorialPartOfItemSchema>;
export const memorialPartOfResultSchema = pageOf(memorialPartOfItemSchema);

/** Biography: sanitised HTML; this is the allow-list the server keeps (everything else is removed). */
export const BIOGRAPHY_MAX_INPUT_CHARS = 100_000;
export const BIOGRAPHY_MAX_CHARS = 50_000;
export const biographyAllowedTags = [
  'p',
  'br',
  'strong',
  'em',
  'u',
  's',
  'h2',
  'h3',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
] as const;

export const biographySchema = z.object({
  memorialId: z.uuid(),
  html: z.string().check(z.describe('Opgeschoonde HTML; leeg als er nog geen levensverhaal is')),
  updatedAt: z.nullable(z.iso.datetime()),
  updatedBy: z.nullable(z.string()).check(z.describe('Naam van wie het laatst wijzigde')),
});
export type Biography = z.infer<typeof biographySchema>;

export const biographyUpdateSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  html: z
    .string({ error: 'Levensverhaal is ongeldig' })
    .check(
      z.maxLength(
        BIOGRAPHY_MAX_INPUT_CHARS,
        `Levensverhaal mag maximaal ${BIOGRAPHY_MAX_INPUT_CHARS} tekens zijn`,
      ),
    ),
});

/** POST /memorial/{id}/access-code/regenerate: the new code; earlier guest tokens stop working. */
export const accessCodeRegeneratedSchema = z.object({
  memorialId: z.uuid(),
  accessCode: z.string(),
  accessCodeVersion: z.int(),
});

/** Idempotent creation: same user and key within 24 hours return the same memorial. */
export const IDEMPOTENCY_KEY_MAX = 200;
export const memorialConceptHeadersSchema = z.object({
  'idempotency-key': z.optional(
    z
      .string()
      .check(
        z.minLength(1, 'Idempotency-Key is leeg'),
        z.maxLength(IDEMPOTENCY_KEY_MAX, `Idempotency-Key mag maximaal ${IDEMPOTENCY_KEY_MAX} tekens zijn`),
        z.regex(/^[\x21-\x7e]+$/, 'Idempotency-Key bevat ongeldige tekens'),
      ),
  ),
});
