import {
  funeralDayErrorCodes,
  routes,
  serviceKindLabels,
  SERVICES_MAX,
  type MemorialService,
  type Rsvp,
  type rsvpCreateSchema,
  type serviceInputSchema,
} from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { dailyJob, registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, type MemorialAccess } from '../../shared/memorial-access.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { isUuid } from '../../shared/pagination.ts';
import { iso } from '../../shared/time.ts';
import { amsterdamDate, amsterdamInstant, amsterdamIso, csvFile, mapUrl, serviceIcs } from './calendar.ts';
import { funeralDayRepository, type RsvpRow, type ServiceFields, type ServiceRow } from './repository.ts';
import { rsvpSummaryMail } from './mails.ts';
import { lockMemorial, memorialNames } from '../../shared/memorial-row.ts';

export const RSVP_SUMMARY_JOB = 'funeral-day.rsvp-summary';

const serviceNotFound = () =>
  new AppError(404, funeralDayErrorCodes.serviceNotFound, 'Deze bijeenkomst bestaat niet (meer).');
const rsvpClosed = () => new AppError(409, funeralDayErrorCodes.rsvpClosed, 'Aanmelden is gesloten.');

type FuneralDayDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'outbox'>;

const isManager = (acc: MemorialAccess) => acc.role === 'owner' || acc.role === 'editor';

/** When RSVPs close: the family's time, or else when the service starts. */
const closesAt = (r: ServiceRow) =>
  r.rsvp_closes_at ? new Date(r.rsvp_closes_at) : amsterdamInstant(r.service_date, r.starts_at);

export function toService(r: ServiceRow, now: Date, manager: boolean): MemorialService {
  const dayReached = amsterdamDate(now) >= r.service_date;
  return {
    id: r.id,
    memorialId: r.memorial_id,
    kind: r.kind,
    date: r.service_date,
    startTime: r.starts_at,
    endTime: r.ends_at,
    placeName: r.place_name,
    address: r.address,
    mapUrl: mapUrl(r.place_name, r.address),
    programme: r.programme,
    livestreamUrl: manager || dayReached ? r.livestream_url : null,
    afterText: r.after_text,
    rsvpOpen: r.rsvp_open,
    rsvpClosesAt: r.rsvp_closes_at ? iso(r.rsvp_closes_at) : null,
    rsvpAccepting: r.rsvp_open && now.getTime() < closesAt(r).getTime(),
    dayReached,
    startsAt: amsterdamIso(r.service_date, r.starts_at),
  };
}

const toRsvp = (r: RsvpRow): Rsvp => ({
  id: r.id,
  serviceId: r.service_id,
  name: r.name,
  people: r.people,
  note: r.note,
  createdAt: iso(r.created_at),
});

const fields = (input: z.output<typeof serviceInputSchema>): ServiceFields => ({
  kind: input.kind,
  date: input.date,
  startTime: input.startTime,
  endTime: input.endTime ?? null,
  placeName: input.placeName,
  address: input.address,
  programme: input.programme ?? null,
  livestreamUrl: input.livestreamUrl ?? null,
  afterText: input.afterText ?? null,
  rsvpOpen: input.rsvpOpen,
  rsvpClosesAt: input.rsvpClosesAt ? iso(input.rsvpClosesAt) : null,
});

export function funeralDayService(deps: FuneralDayDeps) {
  const { db, config } = deps;
  // Read on every call: tests move the app's clock.
  const clock = { now: () => deps.clock.now() };
  const access = memorialAccessService(db);
  const repo = funeralDayRepository(db);

  async function findService(memorialId: string, serviceId: string) {
    const row = isUuid(serviceId) ? await repo.find(memorialId, serviceId) : undefined;
    if (!row) throw serviceNotFound();
    return row;
  }

  async function requireManager(caller: Caller, memorialId: string, writing: boolean) {
    const acc = await access.require(caller, memorialId, 'editor');
    if (writing && acc.status === 'archived') throw memorialArchived();
    return acc;
  }

  return {
    /** Everyone who may see the memorial; the livestream only from the day on (managers always). */
    async list(caller: Caller, memorialId: string): Promise<{ services: MemorialService[] }> {
      const acc = await access.require(caller, memorialId, 'visitor');
      const now = clock.now();
      const rows = await repo.list(memorialId);
      return { services: rows.map((r) => toService(r, now, isManager(acc))) };
    },

    async create(caller: Caller, memorialId: string, input: z.output<typeof serviceInputSchema>) {
      await requireManager(caller, memorialId, true);
      return db.transaction(async (tx) => {
        await lockMemorial(tx, memorialId);
        const r = funeralDayRepository(tx);
        if ((await r.count(memorialId)) >= SERVICES_MAX)
          throw new AppError(
            409,
            funeralDayErrorCodes.tooManyServices,
            `Een gedenkpagina kan maximaal ${SERVICES_MAX} bijeenkomsten hebben.`,
          );
        const row = await r.insert(memorialId, caller.kind === 'user' ? caller.userId : null, fields(input));
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'service.created',
          targetType: 'service',
          targetId: row.id,
          details: { kind: row.kind, date: row.service_date },
        });
        return toService(row, clock.now(), true);
      });
    },

    async update(
      caller: Caller,
      memorialId: string,
      serviceId: string,
      input: z.output<typeof serviceInputSchema>,
    ) {
      await requireManager(caller, memorialId, true);
      if (!isUuid(serviceId)) throw serviceNotFound();
      return db.transaction(async (tx) => {
        const row = await funeralDayRepository(tx).update(memorialId, serviceId, fields(input));
        if (!row) throw serviceNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'service.updated',
          targetType: 'service',
          targetId: row.id,
          details: { kind: row.kind, date: row.service_date },
        });
        return toService(row, clock.now(), true);
      });
    },

    async remove(caller: Caller, memorialId: string, serviceId: string) {
      await requireManager(caller, memorialId, true);
      if (!isUuid(serviceId)) throw serviceNotFound();
      await db.transaction(async (tx) => {
        if (!(await funeralDayRepository(tx).delete(memorialId, serviceId))) throw serviceNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'service.deleted',
          targetType: 'service',
          targetId: serviceId,
          details: {},
        });
      });
      return { id: serviceId, deleted: true as const };
    },

    /** The calendar file, for everyone who may see the memorial. */
    async calendar(caller: Caller, memorialId: string, serviceId: string) {
      await access.require(caller, memorialId, 'visitor');
      const row = await findService(memorialId, serviceId);
      const m = (await memorialNames(db, memorialId))!;
      const name = `${m.first_name} ${m.last_name}`;
      const url = `${config.APP_URL}${routes.memorial(memorialId)}`;
      const description = [
        row.programme ? `Programma:\n${row.programme}` : null,
        row.after_text ? `Na afloop:\n${row.after_text}` : null,
        url,
      ]
        .filter(Boolean)
        .join('\n\n');
      const body = serviceIcs({
        id: row.id,
        title: `${serviceKindLabels[row.kind]} ${name}`,
        date: row.service_date,
        startTime: row.starts_at,
        endTime: row.ends_at,
        location: `${row.place_name}, ${row.address}`,
        description,
        url,
        now: clock.now(),
      });
      return { body, filename: `${row.kind}-${row.service_date}.ics` };
    },

    /** A visitor signs up for the gathering, without an account, until it closes. */
    async rsvp(
      caller: Caller,
      memorialId: string,
      serviceId: string,
      input: z.output<typeof rsvpCreateSchema>,
    ) {
      const acc = await access.require(caller, memorialId, 'visitor');
      if (acc.status === 'archived') throw memorialArchived();
      const row = await findService(memorialId, serviceId);
      if (!row.rsvp_open || clock.now().getTime() >= closesAt(row).getTime()) throw rsvpClosed();
      const r = await repo.insertRsvp(row.id, {
        name: input.name,
        people: input.people,
        note: input.note ?? null,
      });
      return { id: r.id, people: r.people };
    },

    async rsvps(caller: Caller, memorialId: string, serviceId: string) {
      await requireManager(caller, memorialId, false);
      const row = await findService(memorialId, serviceId);
      const rsvps = (await repo.rsvps(row.id)).map(toRsvp);
      return { rsvps, count: rsvps.length, totalPeople: rsvps.reduce((n, r) => n + r.people, 0) };
    },

    async rsvpsCsv(caller: Caller, memorialId: string, serviceId: string) {
      await requireManager(caller, memorialId, false);
      const row = await findService(memorialId, serviceId);
      const rsvps = await repo.rsvps(row.id);
      const when = new Intl.DateTimeFormat('nl-NL', {
        timeZone: 'Europe/Amsterdam',
        dateStyle: 'short',
        timeStyle: 'short',
      });
      const body = csvFile([
        ['Naam', 'Aantal personen', 'Opmerking', 'Aangemeld op'],
        ...rsvps.map((r) => [r.name, r.people, r.note, when.format(new Date(r.created_at))]),
        ['Totaal', rsvps.reduce((n, r) => n + r.people, 0), null, null],
      ]);
      return { body, filename: `aanmeldingen-${row.kind}-${row.service_date}.csv` };
    },
  };
}

/**
 * The daily summary: for every service with RSVPs that came in since its last summary (and none sent in
 * the last 23 hours), one mail to each owner and editor of the memorial. Run by the daily job, and by tests
 * with a moved clock.
 */
export async function runRsvpSummaries(deps: FuneralDayDeps, log?: FastifyBaseLogger) {
  const { db, outbox, config } = deps;
  const now = deps.clock.now();
  const rows = await funeralDayRepository(db).summariesDue(now);
  let sent = 0;
  for (const s of rows) {
    await db.transaction(async (tx) => {
      const r = funeralDayRepository(tx);
      const rsvps = await r.rsvpsForSummary(s.service_id, s.last_seen);
      const managers = await r.managers(s.memorial_id);
      for (const m of managers)
        await outbox.enqueue(
          tx,
          rsvpSummaryMail({
            to: m.email,
            name: m.name,
            memorialName: `${s.first_name} ${s.last_name}`,
            kind: s.kind,
            date: s.service_date,
            newRsvps: rsvps.filter((r) => r.is_new),
            count: rsvps.length,
            totalPeople: rsvps.reduce((n, r) => n + r.people, 0),
            manageUrl: `${config.APP_URL}${routes.memorialManage(s.memorial_id)}`,
          }),
        );
      await r.markSummarySent(
        s.service_id,
        now,
        rsvps.map((x) => x.id),
      );
    });
    sent++;
  }
  if (sent > 0) log?.info({ services: sent }, 'rsvp summaries queued');
  return { services: sent };
}

/** Registers the daily job and makes sure one run is queued. */
export function registerFuneralDayJobs(deps: FuneralDayDeps & Pick<Deps, 'queue'>, log: FastifyBaseLogger) {
  const daily = dailyJob(deps, RSVP_SUMMARY_JOB, 'mail', () => runRsvpSummaries(deps, log));
  registerJobs(deps.queue, [daily.binding]);
  return { scheduleNext: daily.scheduleNext };
}
