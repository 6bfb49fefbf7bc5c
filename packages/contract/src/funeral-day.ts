import * as z from 'zod/mini';
import { cleanPlainText } from './memory.ts';
import { serviceKinds } from './service-kinds.ts';

/**
 * The services of the funeral day on the memorial page (docs/funeral-day.md)
 * and the RSVP for the koffietafel or gathering after one of them.
 */
export const SERVICE_PLACE_MAX = 120;
export const SERVICE_ADDRESS_MAX = 200;
export const SERVICE_PROGRAMME_MAX = 4000;
export const SERVICE_AFTER_MAX = 1000;
export const SERVICE_URL_MAX = 500;
/** Services per memorial. */
export const SERVICES_MAX = 10;
export const RSVP_NAME_MAX = 80;
export const RSVP_NOTE_MAX = 280;
export const RSVP_PEOPLE_MAX = 20;
/** Per client address, across memorials. */
export const RSVP_RATE_LIMIT = { max: 10, windowMinutes: 10 } as const;

export const funeralDayErrorCodes = {
  serviceNotFound: 'SERVICE_NOT_FOUND',
  rsvpClosed: 'RSVP_CLOSED',
  tooManyServices: 'TOO_MANY_SERVICES',
} as const;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
    );

/** Plain text (line breaks kept), '' or null clears it. */
const optionalText = (label: string, max: number) =>
  z.nullish(
    z.pipe(
      z.pipe(
        z.pipe(z.string({ error: `${label} is ongeldig` }), z.transform(cleanPlainText)),
        z.string().check(z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`)),
      ),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  );

const timeField = (label: string) =>
  z.string({ error: `${label} is verplicht` }).check(z.regex(hhmm, `${label} moet de vorm UU:MM hebben`));

/** A web address: http(s)://host with at least one dot, no spaces. */
const httpsUrl = (s: string) => /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?([/?#]\S*)?$/i.test(s);

/** POST /memorial/{id}/services and PUT /memorial/{id}/services/{serviceId}: the whole service. */
export const serviceInputSchema = z
  .object({
    kind: z.enum(serviceKinds, { error: 'Kies uitvaart, afscheid, crematie of herdenking' }),
    date: z.string({ error: 'Datum is verplicht' }).check(
      z.regex(isoDate, 'Datum moet de vorm JJJJ-MM-DD hebben'),
      z.refine(isRealDate, 'Datum bestaat niet'),
      z.refine((s) => s >= '1900-01-01' && s <= '2200-12-31', 'Datum is ongeldig'),
    ),
    startTime: timeField('Begintijd'),
    endTime: z.nullish(timeField('Eindtijd')),
    placeName: requiredText('Naam van de plaats', SERVICE_PLACE_MAX),
    address: requiredText('Adres', SERVICE_ADDRESS_MAX),
    programme: optionalText('Programma', SERVICE_PROGRAMME_MAX),
    livestreamUrl: z.nullish(
      z.pipe(
        z.string({ error: 'Livestreamlink is ongeldig' }).check(z.trim()),
        // Checked below: a web address (http:// or https://).
        z.transform((s: string) => (s === '' ? null : s)),
      ),
    ),
    afterText: optionalText('Na afloop', SERVICE_AFTER_MAX),
    rsvpOpen: z._default(z.boolean({ error: 'Aanmelden aan of uit is ongeldig' }), false),
    rsvpClosesAt: z.nullish(z.iso.datetime({ offset: true, error: 'Sluittijd voor aanmelden is ongeldig' })),
  })
  .check(
    z.refine((s) => !s.endTime || s.endTime > s.startTime, {
      message: 'Eindtijd moet na de begintijd liggen',
      path: ['endTime'],
    }),
    z.refine(
      (s) => !s.livestreamUrl || (s.livestreamUrl.length <= SERVICE_URL_MAX && httpsUrl(s.livestreamUrl)),
      { message: 'Livestreamlink moet een webadres zijn (https://…)', path: ['livestreamUrl'] },
    ),
  );
export type ServiceInput = z.input<typeof serviceInputSchema>;

export const serviceParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  serviceId: z.string().check(z.maxLength(100), z.describe('UUID van de bijeenkomst')),
});

export const memorialServiceSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  kind: z.enum(serviceKinds),
  date: z.string(),
  startTime: z.string(),
  endTime: z.nullable(z.string()),
  placeName: z.string(),
  address: z.string(),
  /** An OpenStreetMap search for the address: a plain link, no script or map on our pages. */
  mapUrl: z.string(),
  programme: z.nullable(z.string()),
  /** Null for visitors before the service's day (Europe/Amsterdam); owners and editors always see it. */
  livestreamUrl: z.nullable(z.string()),
  afterText: z.nullable(z.string()),
  rsvpOpen: z.boolean(),
  rsvpClosesAt: z.nullable(z.string()),
  /** Whether a visitor can still sign up now. */
  rsvpAccepting: z.boolean(),
  /** The service's day has begun (Europe/Amsterdam): the page shows it below the memories. */
  dayReached: z.boolean(),
  /** Start as an instant (Europe/Amsterdam time). */
  startsAt: z.iso.datetime({ offset: true }),
});
export type MemorialService = z.infer<typeof memorialServiceSchema>;
export const memorialServiceListSchema = z.object({ services: z.array(memorialServiceSchema) });
export const serviceDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** POST /memorial/{id}/services/{serviceId}/rsvp: no account needed. */
export const rsvpCreateSchema = z.object({
  name: requiredText('Naam', RSVP_NAME_MAX),
  people: z
    .int({ error: 'Aantal personen moet een heel getal zijn' })
    .check(
      z.minimum(1, 'Aantal personen is minimaal 1'),
      z.maximum(RSVP_PEOPLE_MAX, `Aantal personen is maximaal ${RSVP_PEOPLE_MAX}`),
    ),
  note: optionalText('Opmerking', RSVP_NOTE_MAX),
});
export type RsvpCreate = z.input<typeof rsvpCreateSchema>;

export const rsvpSchema = z.object({
  id: z.uuid(),
  serviceId: z.uuid(),
  name: z.string(),
  people: z.int(),
  note: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type Rsvp = z.infer<typeof rsvpSchema>;
export const rsvpCreatedSchema = z.object({ id: z.uuid(), people: z.int() });
export const rsvpListSchema = z.object({
  rsvps: z.array(rsvpSchema),
  count: z.int(),
  totalPeople: z.int(),
});
