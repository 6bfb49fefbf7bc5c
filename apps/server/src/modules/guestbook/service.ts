import { randomBytes } from 'node:crypto';
import {
  GUESTBOOK_TOKEN_PATTERN,
  guestbookErrorCodes,
  guestbookPath,
  type Guestbook,
  type GuestbookEntry,
  type GuestbookPublic,
  type guestbookSignSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { isUuid } from '../../shared/pagination.ts';
import { planAllows, planPolicy } from '../../shared/plans.ts';
import { iso } from '../../shared/time.ts';
import { csvFile } from '../../shared/csv.ts';
import { guestbookRepository, type EntryRow } from './repository.ts';
import { guestbookPdf } from './pdf.ts';
import { memorialNames } from '../../shared/memorial-row.ts';

export const guestbookNotFound = () =>
  new AppError(404, guestbookErrorCodes.notFound, 'Dit condoleanceregister bestaat niet (meer).');
const guestbookClosed = () =>
  new AppError(409, guestbookErrorCodes.closed, 'Het condoleanceregister is gesloten.');
const entryNotFound = () =>
  new AppError(404, guestbookErrorCodes.entryNotFound, 'Deze inschrijving bestaat niet (meer).');
export const premiumOnly = () =>
  new AppError(
    403,
    guestbookErrorCodes.premiumOnly,
    'Het digitale condoleanceregister hoort bij Premium. Met het Basis-abonnement kan het niet worden geopend; kies Premium in het tabblad Abonnement.',
  );

type GuestbookDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

export const toEntry = (r: EntryRow): GuestbookEntry => ({
  id: r.id,
  name: r.name,
  address: r.address,
  message: r.message,
  hidden: r.hidden,
  createdAt: iso(r.created_at),
});

const newToken = () => randomBytes(16).toString('base64url');

const yearOf = (d: string | null) => (d ? d.slice(0, 4) : null);
const lifeYears = (birth: string | null, death: string | null) =>
  birth || death ? [yearOf(birth) ?? '', yearOf(death) ?? ''].join(' – ').trim() : null;

/** The family's hand on the guestbook (owners and editors) and the visitors' signing (docs/funeral-day.md). */
export function guestbookService(deps: GuestbookDeps) {
  const { db, config } = deps;
  const access = memorialAccessService(db);
  const repo = guestbookRepository(db);
  const plans = () => planPolicy({ trialDays: config.TRIAL_DAYS, now: () => deps.clock.now() });
  const allowed = async (memorialId: string) =>
    planAllows(await plans().stateOf(db, memorialId), 'guestbook');
  const urlOf = (token: string) => `${config.APP_URL}${guestbookPath(token)}`;

  async function requireManager(caller: Caller, memorialId: string) {
    return access.require(caller, memorialId, 'editor');
  }

  async function memorialName(memorialId: string) {
    const m = (await memorialNames(db, memorialId))!;
    return `${m.first_name} ${m.last_name}`;
  }

  return {
    requireManager,

    async get(caller: Caller, memorialId: string): Promise<Guestbook> {
      await requireManager(caller, memorialId);
      const [ok, row] = await Promise.all([allowed(memorialId), repo.find(memorialId)]);
      if (!row) return { allowed: ok, guestbook: null };
      const entries = await repo.entries(memorialId, { includeHidden: true });
      return {
        allowed: ok,
        guestbook: { open: row.open, token: row.token, url: urlOf(row.token), entries: entries.map(toEntry) },
      };
    },

    /** Opening needs Premium (or the trial) and a writable page; closing is always possible. */
    async setOpen(caller: Caller, memorialId: string, open: boolean): Promise<Guestbook> {
      const acc = await requireManager(caller, memorialId);
      if (open) {
        if (acc.status === 'archived') throw memorialArchived();
        await plans().requireWritable(db, memorialId);
        if (!(await allowed(memorialId))) throw premiumOnly();
      }
      await db.transaction(async (tx) => {
        const row = await guestbookRepository(tx).setOpen(memorialId, open, newToken());
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: open ? 'guestbook.opened' : 'guestbook.closed',
          targetType: 'guestbook',
          targetId: row.memorial_id,
          details: {},
        });
      });
      return this.get(caller, memorialId);
    },

    async setHidden(caller: Caller, memorialId: string, entryId: string, hidden: boolean) {
      await requireManager(caller, memorialId);
      if (!isUuid(entryId)) throw entryNotFound();
      return db.transaction(async (tx) => {
        const row = await guestbookRepository(tx).setHidden(memorialId, entryId, hidden);
        if (!row) throw entryNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: hidden ? 'guestbook.entry_hidden' : 'guestbook.entry_shown',
          targetType: 'guestbook_entry',
          targetId: row.id,
          details: {},
        });
        return toEntry(row);
      });
    },

    /** One entry for the live stream (the caller was checked when the stream opened). */
    async entry(memorialId: string, entryId: string) {
      const row = isUuid(entryId) ? await repo.entry(memorialId, entryId) : undefined;
      return row ? toEntry(row) : null;
    },

    /** The export leaves hidden entries out: hiding is how the family takes one out of the book. */
    async csv(caller: Caller, memorialId: string) {
      await requireManager(caller, memorialId);
      if (!(await repo.find(memorialId))) throw guestbookNotFound();
      const entries = await repo.entries(memorialId, { includeHidden: false });
      const when = new Intl.DateTimeFormat('nl-NL', {
        timeZone: 'Europe/Amsterdam',
        dateStyle: 'short',
        timeStyle: 'short',
      });
      const body = csvFile([
        ['Naam', 'Adres', 'Bericht', 'Geschreven op'],
        ...entries.map((e) => [e.name, e.address, e.message, when.format(new Date(e.created_at))]),
      ]);
      return { body, filename: 'condoleanceregister.csv' };
    },

    async pdf(caller: Caller, memorialId: string) {
      await requireManager(caller, memorialId);
      if (!(await repo.find(memorialId))) throw guestbookNotFound();
      const entries = await repo.entries(memorialId, { includeHidden: false });
      const body = await guestbookPdf({ name: await memorialName(memorialId), entries });
      return { body, filename: 'condoleanceregister.pdf' };
    },

    /** What the signing page shows. No access code: the short link is the key. */
    async publicInfo(token: string): Promise<GuestbookPublic> {
      const row = GUESTBOOK_TOKEN_PATTERN.test(token) ? await repo.byToken(token) : undefined;
      if (!row) throw guestbookNotFound();
      const open = row.open && row.status !== 'archived' && (await allowed(row.memorial_id));
      return {
        name: `${row.first_name} ${row.last_name}`,
        dates: lifeYears(row.birth_date, row.death_date),
        open,
      };
    },

    /** A visitor signs, without an account or the access code, while the family has it open. */
    async sign(token: string, input: z.output<typeof guestbookSignSchema>) {
      const row = GUESTBOOK_TOKEN_PATTERN.test(token) ? await repo.byToken(token) : undefined;
      if (!row) throw guestbookNotFound();
      if (!row.open || row.status === 'archived') throw guestbookClosed();
      if (!(await allowed(row.memorial_id))) throw premiumOnly();
      const e = await repo.insert(row.memorial_id, {
        name: input.name,
        address: input.address ?? null,
        message: input.message ?? null,
      });
      return { id: e.id };
    },
  };
}
export type GuestbookService = ReturnType<typeof guestbookService>;
