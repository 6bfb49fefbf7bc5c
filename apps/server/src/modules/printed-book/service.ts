import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
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
import { streamStored } from '../../lib/media/storage.ts';
import { AppError, notFound, unauthorized } from '../../lib/errors.ts';
import { escapeHtml, greeting } from '../../lib/mail-format.ts';
import { signedLinks } from '../../lib/signed-links.ts';
import { recordAudit } from '../../shared/audit.ts';
import { reserveHeavyJob, stillHasRole } from '../../shared/heavy-jobs.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { planAllows, planFeatureMissing, planPolicy } from '../../shared/plans.ts';
import { PORTRAIT_CANDIDATE, portraitMediaId } from '../../shared/portrait.ts';
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
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v);

type BookRow = {
  id: string;
  memorial_id: string;
  requested_by: string | null;
  status: 'queued' | 'rendering' | 'ready' | 'failed';
  progress: number;
  bleed: boolean;
  crop_marks: boolean;
  storage_key: string | null;
  size_bytes: string | null;
  page_count: number | null;
  warnings: PrintedBookWarning[];
  created_at: Date;
  finished_at: Date | null;
};

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
  const { db, config, storage, outbox, queue, clock } = deps;
  const signer = signedLinks(db, 'printed-book-url-key', 'printed-book');
  const plan = planPolicy({ trialDays: config.TRIAL_DAYS, now: () => clock.now() });
  const access = memorialAccessService(db);
  const fileUrl = async (id: string, download: boolean) =>
    `${config.API_URL}/core/printed-book/${id}/file?${await signer.sign(id, Date.now() + LINK_TTL_MS)}${download ? '&download=1' : ''}`;

  async function current(memorialId: string, q: Queryable = db) {
    const { rows } = await q.query<BookRow>(
      `SELECT id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, storage_key,
              size_bytes, page_count, warnings, created_at, finished_at
         FROM printed_books WHERE memorial_id = $1`,
      [memorialId],
    );
    return rows[0];
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

  const setProgress = (id: string, progress: number) =>
    db.query(`UPDATE printed_books SET progress = $2 WHERE id = $1 AND status = 'rendering'`, [
      id,
      Math.round(progress),
    ]);

  /** The widest stored variant of a photo (the upload itself is not kept, docs/exports.md). */
  async function sourceOf(mediaId: string) {
    const { rows } = await db.query<{ storage_key: string; width: number; height: number }>(
      `SELECT storage_key, width, height FROM media_variants
        WHERE media_id = $1 AND width IS NOT NULL AND height IS NOT NULL
        ORDER BY (name = 'original') DESC, width DESC, (content_type = 'image/jpeg') DESC LIMIT 1`,
      [mediaId],
    );
    const v = rows[0];
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
    const { rows } = await db.query<{
      first_name: string;
      last_name: string;
      birth_date: string | null;
      death_date: string | null;
      birth_place: string | null;
      death_place: string | null;
      quote: string | null;
      biography_html: string;
    }>(
      `SELECT first_name, last_name, birth_date::text, death_date::text, birth_place, death_place, quote,
              biography_html
         FROM memorials m WHERE m.id = $1`,
      [memorialId],
    );
    const m = rows[0];
    if (!m) throw new Error('memorial gone');
    // The cover is the photo the memorial page shows at its head (the one picked, else the gallery's first).
    const coverId = await portraitMediaId(db, memorialId);
    // The gallery's shown photos in its order; videos cannot be printed, the cover's photo is on the cover.
    const { rows: galleryRows } = await db.query<{ id: string; caption: string | null }>(
      `SELECT me.id::text, me.caption FROM memorials m JOIN media me ON ${PORTRAIT_CANDIDATE}
        WHERE m.id = $1 ORDER BY me.position, me.id`,
      [memorialId],
    );
    const galleryPhotos = galleryRows.filter((g) => g.id !== coverId);
    const { rows: memories } = await db.query<{
      id: string;
      year_label: string;
      body: string;
      author_name: string | null;
    }>(
      `SELECT x.id::text, x.year_label, x.body,
              CASE WHEN x.author_kind = 'guest' THEN x.author_name ELSE u.name END AS author_name
         FROM memories x LEFT JOIN users u ON u.id = x.author_user_id
        WHERE x.memorial_id = $1 AND x.status = 'published' AND x.hidden_at IS NULL
        ORDER BY x.published_at, x.id`,
      [memorialId],
    );
    const { rows: photos } = await db.query<{ id: string; memory_id: string }>(
      `SELECT id::text, memory_id::text FROM media
        WHERE memory_id = ANY($1::uuid[]) AND kind = 'image' AND status = 'ready' AND hidden_at IS NULL
        ORDER BY position, id`,
      [memories.map((x) => x.id)],
    );
    const { rows: counts } = await db.query<{ candles: number; flowers: number }>(
      `SELECT count(*) FILTER (WHERE kind = 'candle')::int AS candles,
              count(*) FILTER (WHERE kind = 'flower')::int AS flowers
         FROM candles WHERE memorial_id = $1`,
      [memorialId],
    );
    // The guestbook of the funeral (docs/funeral-day.md): what the family did not hide, in the order signed.
    const { rows: guestbook } = await db.query<{ name: string; message: string | null }>(
      `SELECT name, message FROM guestbook_entries
        WHERE memorial_id = $1 AND NOT hidden ORDER BY created_at, id`,
      [memorialId],
    );
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

  function readyMail(o: { to: string; name: string | null; subject: string; url: string; pages: number }) {
    const hello = greeting(o.name);
    const what = `Het boek over ${o.subject} staat klaar (${o.pages} pagina’s, A5).`;
    return {
      to: o.to,
      subject: `Het boek over ${o.subject} staat klaar`,
      text: `${hello}\n\n${what} Je kunt het bekijken en downloaden op:\n\n${o.url}\n\nLog in met je account om het te openen.\n\nHartelijke groet,\nAandenken\n`,
      html: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)} Je kunt het bekijken en downloaden op:</p><p><a href="${escapeHtml(o.url)}">Open het boek</a></p><p>Log in met je account om het te openen.</p><p>Hartelijke groet,<br>Aandenken</p>`,
    };
  }

  /** The background job: renders the PDF to a temporary file, stores it, mails the requester. */
  async function render(bookId: string, attempt: { last: boolean }) {
    const { rows } = await db.query<BookRow>(
      `UPDATE printed_books SET status = 'rendering', progress = 2, started_at = now()
        WHERE id = $1 AND status IN ('queued', 'rendering')
       RETURNING id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, created_at`,
      [bookId],
    );
    const row = rows[0];
    if (!row) return;
    // Made for and mailed to the requester: only while they still manage the page (nothing is read, stored or mailed).
    const stillManages = (q: Queryable) =>
      row.requested_by !== null && stillHasRole(q, row.requested_by, row.memorial_id, 'editor');
    const refuse = (q: Queryable) =>
      q.query(
        `UPDATE printed_books SET status = 'failed', finished_at = now(), error = $2
          WHERE id = $1 AND status = 'rendering'`,
        [bookId, 'Het boek is niet gemaakt: wie het aanvroeg, beheert deze gedenkpagina niet meer.'],
      );
    if (!(await stillManages(db))) {
      await refuse(db);
      return;
    }
    const tmpDir = path.join(config.DATA_DIR, 'tmp');
    await fs.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `book-${bookId}-${crypto.randomUUID()}.pdf`);
    try {
      const warnings: PrintedBookWarning[] = [];
      const content = await loadContent(row.memorial_id, bookId, row.bleed, warnings);
      await setProgress(bookId, 85);
      const { pageCount } = await renderBook(
        content,
        { bleed: row.bleed, cropMarks: row.crop_marks },
        createWriteStream(tmp),
      );
      const { size } = await fs.stat(tmp);
      const key = `${bookId}/${FILE_NAME}`;
      await storage.putFile(key, tmp);
      const done = await db.transaction(async (tx) => {
        // Removed while it was rendered: the file goes and nothing is mailed.
        if (!(await stillManages(tx))) {
          await refuse(tx);
          return false;
        }
        const { rows: updated } = await tx.query<{ email: string | null; name: string | null }>(
          `UPDATE printed_books b SET status = 'ready', progress = 100, storage_key = $2, size_bytes = $3,
                  page_count = $4, warnings = $5, finished_at = now()
            WHERE b.id = $1 AND b.status = 'rendering'
           RETURNING (SELECT email FROM users WHERE id = b.requested_by) AS email,
                     (SELECT name FROM users WHERE id = b.requested_by) AS name`,
          [bookId, key, size, pageCount, JSON.stringify(warnings)],
        );
        const u = updated[0];
        if (!u) return false;
        if (u.email)
          await outbox.enqueue(
            tx,
            readyMail({
              to: u.email,
              name: u.name,
              subject: content.name,
              url: `${config.APP_URL}${routes.memorialBook(row.memorial_id)}`,
              pages: pageCount,
            }),
          );
        return true;
      });
      // Replaced or deleted while it was rendered: its file goes too.
      if (!done) await storage.deletePrefix(bookId);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      await db.query(
        attempt.last
          ? `UPDATE printed_books SET status = 'failed', finished_at = now() WHERE id = $1`
          : `UPDATE printed_books SET status = 'queued', progress = 0 WHERE id = $1`,
        [bookId],
      );
      throw err;
    }
  }

  return {
    render,
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
        await tx.query('DELETE FROM printed_books WHERE memorial_id = $1', [memorialId]);
        const { rows } = await tx.query<BookRow>(
          `INSERT INTO printed_books (memorial_id, requested_by, bleed, crop_marks) VALUES ($1, $2, $3, $4)
           RETURNING id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, storage_key,
                     size_bytes, page_count, warnings, created_at, finished_at`,
          [memorialId, user.userId, options.bleed, options.cropMarks],
        );
        const created = rows[0]!;
        await recordAudit(tx, {
          memorialId,
          actor: user,
          action: 'memorial.printed_book_requested',
          targetType: 'printed_book',
          targetId: created.id,
        });
        await queue.enqueue(tx, PRINTED_BOOK_JOB, { bookId: created.id }, { maxAttempts: 3, owner });
        return created;
      });
      queue.notify();
      return state(memorialId, true, row);
    },

    /** The PDF behind a signed link from the state (owners and editors only, while the plan has it). */
    async file(o: { bookId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) {
      if (!isUuid(o.bookId)) throw notFound();
      const bookId = o.bookId.toLowerCase();
      const check = await signer.check(bookId, o.exp, o.sig);
      if (check !== 'valid')
        throw new AppError(
          403,
          check === 'expired' ? 'BOOK_LINK_EXPIRED' : 'BOOK_LINK_INVALID',
          check === 'expired'
            ? 'Deze link naar het boek is verlopen. Open het boek opnieuw vanaf de pagina Boek.'
            : 'Deze link naar het boek klopt niet.',
        );
      const { rows } = await db.query<BookRow & { first_name: string; last_name: string }>(
        `SELECT b.id::text, b.memorial_id::text, b.status, b.storage_key, b.size_bytes, b.created_at,
                m.first_name, m.last_name
           FROM printed_books b JOIN memorials m ON m.id = b.memorial_id WHERE b.id = $1`,
        [bookId],
      );
      const row = rows[0];
      if (!row || row.status !== 'ready' || !row.storage_key) throw notFound('Dit boek bestaat niet meer.');
      // The link is short-lived and only handed to owners and editors; a signed-in caller is checked again.
      const caller = await o.caller();
      if (caller.kind !== 'anonymous') await requireBookAccess(caller, row.memorial_id, { write: true });
      else {
        const planState = await plan.stateOf(db, row.memorial_id);
        if (!planAllows(planState, 'printedBook')) throw planFeatureMissing('Het gedrukte boek');
      }
      const slug = `${row.first_name} ${row.last_name}`
        .normalize('NFKD')
        .replace(/[^\w\s-]/g, '')
        .trim()
        .replace(/\s+/g, '-')
        .toLowerCase()
        .slice(0, 60);
      const body = await streamStored(storage, row.storage_key, () =>
        notFound('Dit boek bestaat niet meer.'),
      );
      return { filename: `boek-${slug || 'aandenken'}.pdf`, size: Number(row.size_bytes), body };
    },
  };
}
export type PrintedBookService = ReturnType<typeof printedBookService>;
