import { createWriteStream } from 'node:fs';
import sanitizeHtml from 'sanitize-html';
import {
  PRINTED_BOOK_DPI,
  routes,
  type PrintedBookRequest,
  type PrintedBookState,
  type PrintedBookWarning,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { unauthorized } from '../../lib/errors.ts';
import { fileSlug, generatedFiles } from '../../lib/generated-files.ts';
import { bookReadyMail } from './mails.ts';
import {
  printedBookFileStore,
  printedBookRepository,
  type BookFileRow,
  type BookJobRow,
  type BookRow,
  type MadeBook,
} from './repository.ts';
import { recordAudit } from '../../shared/audit.ts';
import { reserveHeavyJob, stillHasRole } from '../../shared/heavy-jobs.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { planAllows, planFeatureMissing, planPolicy } from '../../shared/plans.ts';
import { portraitMediaId } from '../../shared/portrait.ts';
import { sanitizeBiography } from '../../shared/sanitize-biography.ts';
import {
  coverBox,
  galleryPhotoSize,
  memoryPhotoSize,
  renderBook,
  type BioBlock,
  type BookContent,
  type BookPhoto,
} from './pdf.ts';

export const PRINTED_BOOK_JOB = 'printed-book.render';
const FILE_NAME = 'book.pdf';
/** How long a preview or download link from the state works. */
const LINK_TTL_MS = 3600_000;

const monthsNl = [
  'januari',
  'februari',
  'maart',
  'april',
  'mei',
  'juni',
  'juli',
  'augustus',
  'september',
  'oktober',
  'november',
  'december',
];
/** '1941-05-03' → '3 mei 1941'. */
const dayNl = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${monthsNl[m! - 1]} ${y}`;
};

const decode = (s: string) =>
  s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&');
const plain = (html: string) =>
  decode(sanitizeHtml(html.replace(/<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} }))
    .replace(/[ \t]+/g, ' ')
    .trim();

/** The biography (stored HTML, cleaned once more) as blocks for print. */
export function biographyBlocks(html: string): BioBlock[] {
  const clean = sanitizeBiography(html);
  const blocks: BioBlock[] = [];
  const re = /<(h2|h3|p|li|blockquote)[^>]*>([\s\S]*?)<\/\1>/gi;
  for (const m of clean.matchAll(re)) {
    const tag = m[1]!.toLowerCase();
    // A blockquote holds paragraphs of its own: those are matched by the <p> rule as well.
    if (tag === 'blockquote' && /<p[\s>]/i.test(m[2]!)) continue;
    const text = plain(m[2]!);
    if (!text) continue;
    blocks.push({
      kind:
        tag === 'li'
          ? 'item'
          : tag === 'blockquote'
            ? 'quote'
            : tag.startsWith('h')
              ? 'heading'
              : 'paragraph',
      text,
    });
  }
  return blocks;
}

export function printedBookService(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue' | 'clock'>,
) {
  const { db, config, storage, clock } = deps;
  const plan = planPolicy({ trialDays: config.TRIAL_DAYS, now: () => clock.now() });
  const access = memorialAccessService(db);
  const books = printedBookRepository(db);
  const fileUrl = (id: string, download: boolean) =>
    files.linkTo(id, Date.now() + LINK_TTL_MS, download ? '&download=1' : '');

  async function current(memorialId: string, q: Queryable = db) {
    return printedBookRepository(q).current(memorialId);
  }

  async function state(memorialId: string, available: boolean, row?: BookRow): Promise<PrintedBookState> {
    const ready = row?.status === 'ready' && available;
    return {
      memorialId,
      available,
      status: row?.status ?? 'none',
      progress: row?.status === 'ready' ? 100 : (row?.progress ?? 0),
      bleed: row?.bleed ?? false,
      cropMarks: row?.crop_marks ?? false,
      requestedAt: row?.created_at.toISOString() ?? null,
      finishedAt: row?.finished_at?.toISOString() ?? null,
      pageCount: row?.page_count ?? null,
      sizeBytes: row?.size_bytes ? Number(row.size_bytes) : null,
      warnings: row?.warnings ?? [],
      previewUrl: ready ? await fileUrl(row.id, false) : null,
      downloadUrl: ready ? await fileUrl(row.id, true) : null,
    };
  }

  /** Owners and editors of a page whose plan has the book (403 PLAN_FEATURE on Basis). */
  async function requireBookAccess(caller: Caller, memorialId: string, o: { write: boolean }) {
    await access.require(caller, memorialId, 'editor');
    if (caller.kind !== 'user') throw unauthorized();
    const planState = await plan.stateOf(db, memorialId);
    const allowed = planAllows(planState, 'printedBook');
    if (o.write && !allowed) throw planFeatureMissing('Het gedrukte boek');
    return { caller, allowed };
  }

  // ---- building ----

  const setProgress = (id: string, progress: number) => books.setProgress(id, Math.round(progress));

  /** The widest stored variant of a photo (the upload itself is not kept, docs/exports.md). */
  async function sourceOf(mediaId: string) {
    const v = await books.widestVariant(mediaId);
    if (!v) return null;
    return { data: await storage.read(v.storage_key), width: v.width, height: v.height };
  }

  /**
   * A photo prepared for its printed size (points): at 300 dpi when the source has the pixels (scaled
   * down to exactly that), else at the source's own resolution with a warning.
   */
  async function preparePhoto(
    mediaId: string,
    where: string,
    fit: 'cover' | 'inside',
    box: ((w: number, h: number) => { width: number; height: number }) | { width: number; height: number },
    warnings: PrintedBookWarning[],
  ): Promise<BookPhoto | null> {
    const src = await sourceOf(mediaId).catch(() => null);
    if (!src) {
      warnings.push(unreadable(mediaId, where));
      return null;
    }
    const size = typeof box === 'function' ? box(src.width, src.height) : box;
    // Points per source pixel as placed (a cover photo is cropped to fill its box).
    const scale =
      fit === 'cover'
        ? Math.max(size.width / src.width, size.height / src.height)
        : Math.min(size.width / src.width, size.height / src.height);
    const dpi = Math.floor(72 / scale);
    if (dpi < PRINTED_BOOK_DPI)
      warnings.push({
        mediaId,
        where,
        widthPx: src.width,
        heightPx: src.height,
        dpi,
        message: `${where}: deze foto is ${src.width} × ${src.height} pixels en wordt afgedrukt met ${dpi} dpi (${PRINTED_BOOK_DPI} dpi is nodig voor scherp drukwerk). Upload een grotere versie als je die hebt.`,
      });
    // At 300 dpi: scaled down to the pixels the printed size needs. Below: the source's own pixels (a
    // cover photo cropped to its box), never enlarged.
    const px = (pt: number) =>
      Math.max(1, Math.round(dpi >= PRINTED_BOOK_DPI ? (pt / 72) * PRINTED_BOOK_DPI : pt / scale));
    // Loaded when a book is made: a server that makes none keeps libvips out of its memory.
    const { default: sharp } = await import('sharp');
    const jpeg = await sharp(src.data, { limitInputPixels: 50_000_000 })
      .rotate() // upright by EXIF, should the upload itself still be the widest file
      .resize(px(size.width), px(size.height), { fit: 'cover' })
      .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
      .toBuffer()
      .catch(() => null);
    if (!jpeg) {
      warnings.push(unreadable(mediaId, where));
      return null;
    }
    return { mediaId, jpeg, size };
  }

  const unreadable = (mediaId: string, where: string): PrintedBookWarning => ({
    mediaId,
    where,
    widthPx: 0,
    heightPx: 0,
    dpi: 0,
    message: `${where}: deze foto kon niet worden gelezen en staat niet in het boek.`,
  });

  async function loadContent(
    memorialId: string,
    bookId: string,
    bleed: boolean,
    warnings: PrintedBookWarning[],
  ): Promise<BookContent> {
    const { m, galleryRows, memories, photos, counts, guestbook } = await books.content(memorialId);
    // The cover is the photo the memorial page shows at its head (the one picked, else the gallery's first).
    const coverId = await portraitMediaId(db, memorialId);
    // The gallery's shown photos in its order; videos cannot be printed, the cover's photo is on the cover.
    const galleryPhotos = galleryRows.filter((g) => g.id !== coverId);
    const steps = photos.length + galleryPhotos.length + (coverId ? 1 : 0);
    let step = 0;
    const tick = () => setProgress(bookId, 5 + (75 * ++step) / Math.max(1, steps));

    const cover = coverId ? await preparePhoto(coverId, 'Omslag', 'cover', coverBox(bleed), warnings) : null;
    if (coverId) await tick();
    const gallery: BookContent['gallery'] = [];
    for (const g of galleryPhotos) {
      const caption = g.caption?.trim() || null;
      const where = caption ? `Foto ‘${caption}’` : 'Foto uit de galerij';
      const photo = await preparePhoto(g.id, where, 'inside', galleryPhotoSize, warnings);
      if (photo) gallery.push({ photo, caption });
      await tick();
    }
    const bookMemories: BookContent['memories'] = [];
    for (const x of memories) {
      const where = `Herinnering ${x.year_label}${x.author_name ? ` van ${x.author_name}` : ''}`;
      const prepared: BookPhoto[] = [];
      for (const p of photos.filter((y) => y.memory_id === x.id)) {
        const photo = await preparePhoto(p.id, where, 'inside', memoryPhotoSize, warnings);
        if (photo) prepared.push(photo);
        await tick();
      }
      bookMemories.push({ yearLabel: x.year_label, text: x.body, author: x.author_name, photos: prepared });
    }
    const year = (d: string | null) => d?.slice(0, 4) ?? '';
    const lifeLines = [
      m.birth_date ? `Geboren ${dayNl(m.birth_date)}${m.birth_place ? ` in ${m.birth_place}` : ''}` : '',
      m.death_date ? `Overleden ${dayNl(m.death_date)}${m.death_place ? ` in ${m.death_place}` : ''}` : '',
    ].filter(Boolean);
    const now = clock.now();
    return {
      name: `${m.first_name} ${m.last_name}`,
      years: m.birth_date || m.death_date ? `${year(m.birth_date)} – ${year(m.death_date)}` : '',
      lifeLines,
      quote: m.quote ? plain(m.quote) : null,
      cover,
      biography: biographyBlocks(m.biography_html),
      gallery,
      memories: bookMemories,
      guestbook,
      candleCount: counts[0]?.candles ?? 0,
      flowerCount: counts[0]?.flowers ?? 0,
      madeOn: dayNl(now.toISOString().slice(0, 10)),
    };
  }

  /** The background job (lib/generated-files.ts): the PDF, storage, the requester mailed. */
  const files = generatedFiles<BookJobRow, MadeBook, BookFileRow>(deps, {
    name: 'book',
    job: { kind: PRINTED_BOOK_JOB, lane: 'files', maxAttempts: 3, idField: 'bookId' },
    storageName: FILE_NAME,
    // No expiry: the book stays until a new one replaces it; its links from the state last an hour.
    link: {
      secretName: 'printed-book-url-key',
      scope: 'printed-book',
      path: (id) => `/core/printed-book/${id}/file`,
    },
    linkMessages: {
      invalid: { code: 'BOOK_LINK_INVALID', message: 'Deze link naar het boek klopt niet.' },
      expired: {
        code: 'BOOK_LINK_EXPIRED',
        message: 'Deze link naar het boek is verlopen. Open het boek opnieuw vanaf de pagina Boek.',
      },
      gone: 'Dit boek bestaat niet meer.',
    },
    // Made for and mailed to the requester: only while they still manage the page.
    stillAllowed: async (q, row) =>
      row.requested_by !== null && stillHasRole(q, row.requested_by, row.memorial_id, 'editor'),
    refusedMessage: 'Het boek is niet gemaakt: wie het aanvroeg, beheert deze gedenkpagina niet meer.',
    async make(row, { output, progress }) {
      const warnings: PrintedBookWarning[] = [];
      const content = await loadContent(row.memorial_id, row.id, row.bleed, warnings);
      await progress(0.85);
      const { pageCount } = await renderBook(
        content,
        { bleed: row.bleed, cropMarks: row.crop_marks },
        createWriteStream(output),
      );
      return { pageCount, warnings, name: content.name, memorialId: row.memorial_id };
    },
    mail: (to, made) =>
      bookReadyMail({
        to: to.email,
        name: to.name,
        subject: made.name,
        url: `${config.APP_URL}${routes.memorialBook(made.memorialId)}`,
        pages: made.pageCount,
      }),
    // The link is short-lived and only handed to owners and editors; a signed-in caller is checked again.
    async mayOpen(caller, file) {
      if (caller.kind !== 'anonymous') await requireBookAccess(caller, file.memorialId, { write: true });
      else {
        const planState = await plan.stateOf(db, file.memorialId);
        if (!planAllows(planState, 'printedBook')) throw planFeatureMissing('Het gedrukte boek');
      }
    },
    fileName: (file) => `boek-${fileSlug(file.name, 'aandenken')}.pdf`,
    store: printedBookFileStore(db, setProgress),
  });

  return {
    /** The module's job: making the book. */
    jobs: files.jobs,
    render: (bookId: string, attempt: { last: boolean }) => files.run(bookId, attempt),
    async state(caller: Caller, memorialId: string) {
      const { allowed } = await requireBookAccess(caller, memorialId, { write: false });
      return state(memorialId, allowed, await current(memorialId));
    },
    /** Asks for a (new) book; one being rendered is returned as it is. */
    async request(caller: Caller, memorialId: string, options: PrintedBookRequest) {
      const { caller: user } = await requireBookAccess(caller, memorialId, { write: true });
      const existing = await current(memorialId);
      if (existing && (existing.status === 'queued' || existing.status === 'rendering'))
        return state(memorialId, true, existing);
      const row = await db.transaction(async (tx) => {
        const owner = { memorialId, userId: user.userId };
        await reserveHeavyJob(deps, tx, PRINTED_BOOK_JOB, owner, {
          memorial: 'Er wordt al een boek gemaakt voor deze pagina. Probeer het opnieuw als dat klaar is.',
          account: 'Je laat al genoeg boeken maken. Probeer het opnieuw als er een klaar is.',
        });
        // A request at the same moment (the reservation made them take turns) may have started one.
        const started = await current(memorialId, tx);
        if (started && (started.status === 'queued' || started.status === 'rendering')) return started;
        // The older book goes; its file by the delete trigger's job.
        const created = await printedBookRepository(tx).replace(memorialId, user.userId, options);
        await recordAudit(tx, {
          memorialId,
          actor: user,
          action: 'memorial.printed_book_requested',
          targetType: 'printed_book',
          targetId: created.id,
        });
        await files.enqueue(tx, created.id, owner);
        return created;
      });
      files.notify();
      return state(memorialId, true, row);
    },

    /** The PDF behind a signed link from the state (owners and editors only, while the plan has it). */
    file: (o: { bookId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) =>
      files.open({ id: o.bookId, exp: o.exp, sig: o.sig, caller: o.caller }),
  };
}
export type PrintedBookService = ReturnType<typeof printedBookService>;
