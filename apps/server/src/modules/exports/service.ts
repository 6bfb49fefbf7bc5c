import fs from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_LINK_TTL_DAYS, type ExportState } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { streamStored } from '../../lib/media/storage.ts';
import { AppError, notFound, unauthorized } from '../../lib/errors.ts';
import { dateNl, escapeHtml, greeting } from '../../lib/mail-format.ts';
import { signedLinks } from '../../lib/signed-links.ts';
import { recordAudit } from '../../shared/audit.ts';
import { reserveHeavyJob, stillHasRole } from '../../shared/heavy-jobs.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { renderStaticPage, type ExportFile } from './html.ts';
import { writeZip, type ZipWriter } from './zip.ts';

export const EXPORT_BUILD_JOB = 'export.build';
/** Deletes an export once its link has expired (payload: exportId); the row's delete trigger removes the file. */
export const EXPORT_EXPIRE_JOB = 'export.expire';
const FILE_NAME = 'export.zip';
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v);

type ExportRow = {
  id: string;
  kind: 'memorial' | 'personal';
  memorial_id: string | null;
  user_id: string;
  status: 'preparing' | 'ready' | 'failed';
  storage_key: string | null;
  size_bytes: string | null;
  created_at: Date;
  expires_at: Date | null;
};

/** The file the export holds for one media item: its largest stored variant, byte for byte. */
type MediaPick = {
  id: string;
  memory_id: string | null;
  kind: 'image' | 'video';
  caption: string | null;
  position: number;
  uploaded_by_user_id: string | null;
  created_at: Date;
  storage_key: string;
  content_type: string;
  width: number | null;
  height: number | null;
  sha256: string;
};
const extension: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};
const mediaPath = (m: MediaPick) => `media/${m.id}.${extension[m.content_type] ?? 'bin'}`;
const mediaJson = (m: MediaPick) => ({
  id: m.id,
  kind: m.kind,
  caption: m.caption,
  file: mediaPath(m),
  contentType: m.content_type,
  width: m.width,
  height: m.height,
  sha256: m.sha256,
  createdAt: m.created_at.toISOString(),
});

/** Ready media with the variant to export: the original if kept, else the widest (JPEG before WebP). */
const MEDIA_PICK_SQL = `
  SELECT m.id::text, m.memorial_id::text, m.memory_id::text, m.kind, m.caption, m.position, m.uploaded_by_user_id, m.created_at,
         v.storage_key, v.content_type, v.width, v.height, v.sha256
    FROM media m
    JOIN LATERAL (SELECT * FROM media_variants v WHERE v.media_id = m.id
                   ORDER BY (v.name = 'original') DESC, v.width DESC NULLS LAST, (v.content_type = 'image/jpeg') DESC
                   LIMIT 1) v ON true
   WHERE m.status <> 'processing' AND `;

export function exportService(deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'>) {
  const { db, config, storage, outbox, queue } = deps;
  const limitMessages = {
    memorial: 'Er worden al genoeg exports van deze pagina gemaakt. Probeer het opnieuw als er een klaar is.',
    account: 'Er worden al genoeg exports voor je gemaakt. Probeer het opnieuw als er een klaar is.',
  };
  /** Why a memorial export was not made: its requester is no longer an owner. */
  const noLongerOwner = 'De export is niet gemaakt: je bent geen eigenaar van deze gedenkpagina meer.';
  const signer = signedLinks(db, 'export-url-key', 'export');

  async function state(row: ExportRow | undefined): Promise<ExportState> {
    if (!row)
      return { status: 'none', requestedAt: null, downloadUrl: null, expiresAt: null, sizeBytes: null };
    const live = row.status === 'ready' && row.expires_at && row.expires_at.getTime() > Date.now();
    return {
      status: row.status === 'ready' && !live ? 'none' : row.status,
      requestedAt: row.created_at.toISOString(),
      downloadUrl: live ? await downloadUrl(row.id, row.expires_at!) : null,
      expiresAt: live ? row.expires_at!.toISOString() : null,
      sizeBytes: live && row.size_bytes ? Number(row.size_bytes) : null,
    };
  }
  const downloadUrl = async (id: string, expiresAt: Date) =>
    `${config.API_URL}/core/export/${id}/download?${await signer.sign(id, expiresAt)}`;

  async function newest(userId: string, memorialId: string | null) {
    const { rows } = await db.query<ExportRow>(
      `SELECT * FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid
        ORDER BY created_at DESC LIMIT 1`,
      [userId, memorialId ? 'memorial' : 'personal', memorialId],
    );
    return rows[0];
  }

  /** Starts an export unless one is being prepared; older exports (and their files) are removed. */
  async function request(caller: Caller & { kind: 'user' }, memorialId: string | null) {
    const current = await newest(caller.userId, memorialId);
    if (current?.status === 'preparing') return state(current);
    const row = await db.transaction(async (tx) => {
      if (memorialId) await memorialAccessService(tx).require(caller, memorialId, 'owner');
      const owner = { memorialId, userId: caller.userId };
      await reserveHeavyJob(deps, tx, EXPORT_BUILD_JOB, owner, limitMessages);
      // A request at the same moment (the reservation made them take turns) may have started one.
      const { rows: started } = await tx.query<ExportRow>(
        `SELECT * FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid
            AND status = 'preparing' ORDER BY created_at DESC LIMIT 1`,
        [caller.userId, memorialId ? 'memorial' : 'personal', memorialId],
      );
      if (started[0]) return started[0];
      await tx.query(
        `DELETE FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid`,
        [caller.userId, memorialId ? 'memorial' : 'personal', memorialId],
      );
      // Expired exports of anyone go too (their files by the delete trigger's job).
      await tx.query(`DELETE FROM exports WHERE expires_at < now()`);
      const { rows } = await tx.query<ExportRow>(
        `INSERT INTO exports (kind, memorial_id, user_id) VALUES ($1, $2, $3) RETURNING *`,
        [memorialId ? 'memorial' : 'personal', memorialId, caller.userId],
      );
      const created = rows[0]!;
      if (memorialId)
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.export_requested',
          targetType: 'export',
          targetId: created.id,
        });
      await queue.enqueue(tx, EXPORT_BUILD_JOB, { exportId: created.id }, { maxAttempts: 3, owner });
      return created;
    });
    queue.notify();
    return state(row);
  }

  // ---- building ----

  async function addMedia(zip: ZipWriter, items: MediaPick[]) {
    for (const m of items) await zip.stream(mediaPath(m), await storage.stream(m.storage_key));
  }

  async function buildMemorial(zip: ZipWriter, memorialId: string, now: Date) {
    const { rows: mrows } = await db.query<{
      id: string;
      first_name: string;
      last_name: string;
      birth_date: string | null;
      death_date: string | null;
      birth_place: string | null;
      death_place: string | null;
      quote: string | null;
      biography_html: string;
      status: string;
      visibility: string;
      cover_media_id: string | null;
      created_at: Date;
      published_at: Date | null;
    }>(
      `SELECT id::text, first_name, last_name, birth_date::text, death_date::text, birth_place, death_place, quote,
              biography_html, status, visibility, cover_media_id::text, created_at, published_at
         FROM memorials WHERE id = $1`,
      [memorialId],
    );
    const m = mrows[0];
    if (!m) throw new Error('memorial gone');
    const { rows: memories } = await db.query<{
      id: string;
      year_label: string;
      body: string;
      members_only: boolean;
      author_name: string | null;
      published_at: Date;
      created_at: Date;
    }>(
      `SELECT x.id::text, x.year_label, x.body, x.members_only, x.published_at, x.created_at,
              CASE WHEN x.author_kind = 'guest' THEN x.author_name ELSE u.name END AS author_name
         FROM memories x LEFT JOIN users u ON u.id = x.author_user_id
        WHERE x.memorial_id = $1 AND x.status = 'published'
        ORDER BY x.published_at, x.id`,
      [memorialId],
    );
    const { rows: media } = await db.query<MediaPick>(
      `${MEDIA_PICK_SQL} m.memorial_id = $1
         AND (m.memory_id IS NULL OR m.memory_id IN (SELECT id FROM memories WHERE memorial_id = $1 AND status = 'published'))
       ORDER BY m.memory_id NULLS FIRST, m.position, m.id`,
      [memorialId],
    );
    const { rows: candles } = await db.query<{
      kind: string;
      name: string;
      message: string | null;
      created_at: Date;
    }>('SELECT kind, name, message, created_at FROM candles WHERE memorial_id = $1 ORDER BY created_at, id', [
      memorialId,
    ]);
    const gallery = media.filter((x) => !x.memory_id);
    const ofMemory = (id: string) => media.filter((x) => x.memory_id === id);
    const file = (x: MediaPick): ExportFile => ({ path: mediaPath(x), kind: x.kind, caption: x.caption });
    const cover = media.find((x) => x.id === m.cover_media_id) ?? null;
    const name = `${m.first_name} ${m.last_name}`;

    await zip.text(
      'index.html',
      renderStaticPage({
        name,
        birthDate: m.birth_date,
        deathDate: m.death_date,
        birthPlace: m.birth_place,
        deathPlace: m.death_place,
        quote: m.quote,
        biographyHtml: m.biography_html,
        cover: cover ? file(cover) : null,
        gallery: gallery.filter((x) => x.id !== m.cover_media_id).map(file),
        memories: memories.map((x) => ({
          yearLabel: x.year_label,
          text: x.body,
          authorName: x.author_name,
          media: ofMemory(x.id).map(file),
        })),
        candleCount: candles.filter((c) => c.kind === 'candle').length,
        flowerCount: candles.filter((c) => c.kind === 'flower').length,
        exportedAt: now,
      }),
    );
    const data = {
      format: 'aandenken-memorial-export/1',
      exportedAt: now.toISOString(),
      memorial: {
        id: m.id,
        firstName: m.first_name,
        lastName: m.last_name,
        birthDate: m.birth_date,
        deathDate: m.death_date,
        birthPlace: m.birth_place,
        deathPlace: m.death_place,
        quote: m.quote,
        biographyHtml: m.biography_html,
        status: m.status,
        visibility: m.visibility,
        coverMediaId: m.cover_media_id,
        createdAt: m.created_at.toISOString(),
        publishedAt: m.published_at?.toISOString() ?? null,
      },
      gallery: gallery.map(mediaJson),
      memories: memories.map((x) => ({
        id: x.id,
        yearLabel: x.year_label,
        text: x.body,
        membersOnly: x.members_only,
        authorName: x.author_name,
        createdAt: x.created_at.toISOString(),
        publishedAt: x.published_at.toISOString(),
        media: ofMemory(x.id).map(mediaJson),
      })),
      candles: {
        count: candles.length,
        items: candles.map((c) => ({
          kind: c.kind,
          name: c.name,
          message: c.message,
          createdAt: c.created_at.toISOString(),
        })),
      },
    };
    await zip.text('data.json', `${JSON.stringify(data, null, 2)}\n`);
    await addMedia(zip, media);
    return { subjectName: name };
  }

  async function buildPersonal(zip: ZipWriter, userId: string, now: Date) {
    const one = async <T extends Record<string, unknown>>(sql: string) =>
      (await db.query<T>(sql, [userId])).rows;
    const [user] = await one<{ id: string; email: string | null; name: string | null; created_at: Date }>(
      'SELECT id, email, name, created_at FROM users WHERE id = $1',
    );
    if (!user) throw new Error('user gone');
    const account = config.embeddedIdentity
      ? (
          await one<{ email: string; name: string; email_verified: boolean; created_at: Date }>(
            'SELECT email, name, email_verified, created_at FROM accounts WHERE id::text = $1',
          )
        )[0]
      : undefined;
    const memberships = await one<{
      id: string;
      memorial_id: string;
      memorial_name: string;
      role: string;
      created_at: Date;
    }>(
      `SELECT mm.id::text, mm.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, mm.role, mm.created_at
         FROM memorial_members mm JOIN memorials m ON m.id = mm.memorial_id
        WHERE mm.user_id = $1 ORDER BY mm.created_at, mm.id`,
    );
    const memories = await one<{
      id: string;
      memorial_id: string;
      memorial_name: string;
      year_label: string;
      body: string;
      status: string;
      members_only: boolean;
      created_at: Date;
      published_at: Date | null;
    }>(
      `SELECT x.id::text, x.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, x.year_label, x.body,
              x.status, x.members_only, x.created_at, x.published_at
         FROM memories x JOIN memorials m ON m.id = x.memorial_id
        WHERE x.author_user_id = $1 ORDER BY x.created_at, x.id`,
    );
    // Photos and videos they uploaded (gallery or memories), and those of their own memories.
    const media = await one<MediaPick & { memorial_id: string }>(
      `${MEDIA_PICK_SQL} (m.uploaded_by_user_id = $1
          OR m.memory_id IN (SELECT id FROM memories WHERE author_user_id = $1))
       ORDER BY m.created_at, m.id`,
    );
    const candles = await one<{
      memorial_id: string;
      memorial_name: string;
      kind: string;
      name: string;
      message: string | null;
      created_at: Date;
    }>(
      `SELECT c.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, c.kind, c.name, c.message, c.created_at
         FROM candles c JOIN memorials m ON m.id = c.memorial_id
        WHERE c.lit_by_user_id = $1 ORDER BY c.created_at, c.id`,
    );
    const loves = await one<{ memory_id: string; created_at: Date }>(
      'SELECT memory_id::text, created_at FROM memory_loves WHERE user_id = $1 ORDER BY created_at, id',
    );
    // Audit entries about them: what they did, and what was done to their account or membership.
    const audit = await one<{
      memorial_id: string;
      action: string;
      actor_kind: string;
      actor_is_you: boolean;
      target_type: string | null;
      target_id: string | null;
      details: Record<string, unknown>;
      created_at: Date;
    }>(
      `SELECT a.memorial_id::text, a.action, a.actor_kind, a.actor_user_id IS NOT DISTINCT FROM $1 AS actor_is_you,
              a.target_type, a.target_id, a.details, a.created_at
         FROM memorial_audit_log a
        WHERE a.actor_user_id = $1 OR a.target_id = $1
           OR a.target_id IN (SELECT id::text FROM memorial_members WHERE user_id = $1)
        ORDER BY a.seq`,
    );
    const data = {
      format: 'aandenken-personal-export/1',
      exportedAt: now.toISOString(),
      profile: {
        userId: user.id,
        email: account?.email ?? user.email,
        name: account?.name ?? user.name,
        emailVerified: account?.email_verified ?? null,
        createdAt: (account?.created_at ?? user.created_at).toISOString(),
      },
      memberships: memberships.map((x) => ({
        memorialId: x.memorial_id,
        memorialName: x.memorial_name,
        role: x.role,
        since: x.created_at.toISOString(),
      })),
      memories: memories.map((x) => ({
        id: x.id,
        memorialId: x.memorial_id,
        memorialName: x.memorial_name,
        yearLabel: x.year_label,
        text: x.body,
        status: x.status,
        membersOnly: x.members_only,
        createdAt: x.created_at.toISOString(),
        publishedAt: x.published_at?.toISOString() ?? null,
      })),
      media: media.map((x) => ({
        ...mediaJson(x),
        memorialId: x.memorial_id,
        memoryId: x.memory_id,
        uploadedByYou: x.uploaded_by_user_id === userId,
      })),
      candles: candles.map((x) => ({
        memorialId: x.memorial_id,
        memorialName: x.memorial_name,
        kind: x.kind,
        name: x.name,
        message: x.message,
        createdAt: x.created_at.toISOString(),
      })),
      memoryLoves: loves.map((x) => ({ memoryId: x.memory_id, createdAt: x.created_at.toISOString() })),
      audit: audit.map((x) => ({
        memorialId: x.memorial_id,
        action: x.action,
        byYou: x.actor_is_you,
        actorKind: x.actor_kind,
        targetType: x.target_type,
        targetId: x.target_id,
        details: x.actor_is_you ? x.details : {},
        at: x.created_at.toISOString(),
      })),
    };
    await zip.text('data.json', `${JSON.stringify(data, null, 2)}\n`);
    await zip.text(
      'LEESMIJ.txt',
      `Je gegevens bij Aandenken, opgehaald op ${dateNl(now)}.\n\n` +
        'data.json bevat je profiel, lidmaatschappen, herinneringen, kaarsjes en de logregels over jou.\n' +
        'De map media bevat je foto’s en video’s in de grootste bewaarde versie.\n',
    );
    await addMedia(zip, media);
    return { subjectName: null };
  }

  function exportMail(o: {
    to: string;
    name: string | null;
    subjectName: string | null;
    url: string;
    expiresAt: Date;
  }) {
    const what = o.subjectName
      ? `de export van de gedenkpagina voor ${o.subjectName}`
      : 'de download met al je gegevens';
    const subject = o.subjectName
      ? `De export van de gedenkpagina voor ${o.subjectName} staat klaar`
      : 'Je gegevens staan klaar om te downloaden';
    const hello = greeting(o.name);
    const until = `Deze link werkt tot ${dateNl(o.expiresAt)}; daarna kun je een nieuwe export aanvragen.`;
    return {
      to: o.to,
      subject,
      text: `${hello}\n\nJe hebt ${what} aangevraagd. Het zip-bestand staat klaar:\n\n${o.url}\n\n${until}\nDeel deze link niet: wie hem heeft, kan het bestand downloaden.\n\nHartelijke groet,\nAandenken\n`,
      html: `<p>${escapeHtml(hello)}</p><p>Je hebt ${escapeHtml(what)} aangevraagd. Het zip-bestand staat klaar:</p><p><a href="${escapeHtml(o.url)}">Download het zip-bestand</a></p><p>${escapeHtml(until)}<br>Deel deze link niet: wie hem heeft, kan het bestand downloaden.</p><p>Hartelijke groet,<br>Aandenken</p>`,
    };
  }

  /** The background job: writes the zip to a temporary file, moves it into storage, mails the link. */
  async function build(exportId: string, attempt: { last: boolean }) {
    const { rows } = await db.query<ExportRow>('SELECT * FROM exports WHERE id = $1', [exportId]);
    const row = rows[0];
    if (!row || row.status !== 'preparing') return;
    // Built on the requester's behalf: only while they are still an owner (nothing is read, stored or mailed).
    if (row.memorial_id && !(await stillHasRole(db, row.user_id, row.memorial_id, 'owner'))) {
      await refuse(exportId);
      return;
    }
    const tmpDir = path.join(config.DATA_DIR, 'tmp');
    await fs.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, `export-${exportId}-${crypto.randomUUID()}.zip`);
    try {
      const now = new Date();
      let subjectName: string | null = null;
      await writeZip(tmp, async (zip) => {
        subjectName = row.memorial_id
          ? (await buildMemorial(zip, row.memorial_id, now)).subjectName
          : (await buildPersonal(zip, row.user_id, now)).subjectName;
      });
      const { size } = await fs.stat(tmp);
      const key = `${exportId}/${FILE_NAME}`;
      await storage.putFile(key, tmp);
      const expiresAt = new Date(now.getTime() + EXPORT_LINK_TTL_DAYS * 24 * 3600_000);
      // Signed before the transaction: the key is read with a query of its own.
      const url = await downloadUrl(exportId, expiresAt);
      const done = await db.transaction(async (tx) => {
        // Removed while it was built: the file goes and nothing is mailed.
        if (row.memorial_id && !(await stillHasRole(tx, row.user_id, row.memorial_id, 'owner'))) {
          await refuse(exportId, tx);
          return false;
        }
        const { rows: updated } = await tx.query<{ email: string | null; name: string | null }>(
          `UPDATE exports e SET status = 'ready', storage_key = $2, size_bytes = $3, finished_at = now(), expires_at = $4
             FROM users u WHERE e.id = $1 AND e.status = 'preparing' AND u.id = e.user_id
           RETURNING u.email, u.name`,
          [exportId, key, size, expiresAt],
        );
        const u = updated[0];
        if (!u) return false;
        await queue.enqueue(
          tx,
          EXPORT_EXPIRE_JOB,
          { exportId },
          { delayMs: expiresAt.getTime() - Date.now(), maxAttempts: 10 },
        );
        if (u.email)
          await outbox.enqueue(
            tx,
            exportMail({
              to: u.email,
              name: u.name,
              subjectName,
              url,
              expiresAt,
            }),
          );
        return true;
      });
      // Replaced or deleted while it was built: its file goes too.
      if (!done) await storage.deletePrefix(exportId);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      if (attempt.last)
        await db.query(`UPDATE exports SET status = 'failed', finished_at = now() WHERE id = $1`, [exportId]);
      throw err;
    }
  }

  const refuse = (exportId: string, q: Queryable = db) =>
    q.query(
      `UPDATE exports SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1 AND status = 'preparing'`,
      [exportId, noLongerOwner],
    );

  const linkExpired = () =>
    new AppError(403, 'EXPORT_LINK_EXPIRED', 'Deze downloadlink is verlopen. Vraag een nieuwe export aan.');

  /** The scheduled clean-up: an expired export goes with its file; one that runs early waits again. */
  async function expire(exportId: string) {
    const { rows } = await db.query<{ expires_at: Date | null }>(
      'SELECT expires_at FROM exports WHERE id = $1',
      [exportId],
    );
    const expiresAt = rows[0]?.expires_at;
    if (!expiresAt) return; // gone already (replaced by a newer export, or its memorial or user deleted)
    const wait = expiresAt.getTime() - Date.now();
    if (wait > 0) {
      await queue.enqueue(db, EXPORT_EXPIRE_JOB, { exportId }, { delayMs: wait, maxAttempts: 10 });
      return;
    }
    await db.query('DELETE FROM exports WHERE id = $1 AND expires_at <= now()', [exportId]);
  }

  return {
    build,
    expire,
    async memorialState(caller: Caller, memorialId: string) {
      await memorialAccessService(db).require(caller, memorialId, 'owner');
      if (caller.kind !== 'user') throw unauthorized();
      return state(await newest(caller.userId, memorialId));
    },
    async requestMemorial(caller: Caller, memorialId: string) {
      await memorialAccessService(db).require(caller, memorialId, 'owner');
      if (caller.kind !== 'user') throw unauthorized();
      return request(caller, memorialId);
    },
    async personalState(caller: Caller & { kind: 'user' }) {
      return state(await newest(caller.userId, null));
    },
    requestPersonal: (caller: Caller & { kind: 'user' }) => request(caller, null),

    /**
     * The file behind a signed link. The link is the key (it opens from a mail, without sign-in), but a
     * signed-in person who is not the one who asked for it is refused.
     */
    async download(o: { exportId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) {
      if (!isUuid(o.exportId)) throw notFound();
      const exportId = o.exportId.toLowerCase();
      const check = await signer.check(exportId, o.exp, o.sig);
      if (check === 'invalid')
        throw new AppError(
          403,
          'EXPORT_LINK_INVALID',
          'Deze downloadlink klopt niet. Gebruik de link uit de mail.',
        );
      if (check === 'expired') throw linkExpired();
      const { rows } = await db.query<ExportRow & { first_name: string | null; last_name: string | null }>(
        `SELECT e.*, m.first_name, m.last_name FROM exports e LEFT JOIN memorials m ON m.id = e.memorial_id
          WHERE e.id = $1`,
        [exportId],
      );
      const row = rows[0];
      if (!row || row.status !== 'ready' || !row.storage_key)
        throw notFound('Deze export bestaat niet meer.');
      if (!row.expires_at || row.expires_at.getTime() <= Date.now()) throw linkExpired();
      const caller = await o.caller();
      if (caller.kind === 'guest' || (caller.kind === 'user' && caller.userId !== row.user_id))
        throw new AppError(403, 'EXPORT_NOT_YOURS', 'Deze download is voor iemand anders aangevraagd.');
      const slug = (s: string) =>
        s
          .normalize('NFKD')
          .replace(/[^\w\s-]/g, '')
          .trim()
          .replace(/\s+/g, '-')
          .toLowerCase()
          .slice(0, 60) || 'export';
      const day = row.created_at.toISOString().slice(0, 10);
      const filename =
        row.kind === 'memorial'
          ? `aandenken-${slug(`${row.first_name} ${row.last_name}`)}-${day}.zip`
          : `aandenken-mijn-gegevens-${day}.zip`;
      const body = await streamStored(storage, row.storage_key, () =>
        notFound('Deze export bestaat niet meer.'),
      );
      return { filename, size: Number(row.size_bytes), body };
    },
  };
}
export type ExportService = ReturnType<typeof exportService>;
