import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  PRESENTATION_SECONDS_DEFAULT,
  PRESENTATION_VIDEO_TTL_DAYS,
  presentationErrorCodes,
  type PresentationInfo,
  type PresentationMusic,
  type PresentationResolution,
  type PresentationSettings,
  type PresentationSettingsUpdate,
  type PresentationSlide,
  type PresentationVideoState,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { streamStored } from '../../lib/media/storage.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors.ts';
import { dateNl, escapeHtml, greeting } from '../../lib/mail-format.ts';
import { checkAndCleanAudio } from '../../lib/media/audio.ts';
import { videoAndMusicOff } from '../../lib/media/video.ts';
import type { ReceivedFile } from '../../lib/media/upload.ts';
import { signedLinks } from '../../lib/signed-links.ts';
import { recordAudit } from '../../shared/audit.ts';
import { reserveHeavyJob, stillHasRole } from '../../shared/heavy-jobs.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { planAllows, planPolicy } from '../../shared/plans.ts';
import { renderOneAtATime, renderPresentationVideo, RenderTimeout, type RenderSlide } from './render.ts';

export const PRESENTATION_RENDER_JOB = 'presentation.render';
export const PRESENTATION_VIDEO_EXPIRE_JOB = 'presentation.video-expire';
/** Signed music links: rounded like media links so the browser may reuse what it cached. */
const MUSIC_LINK_STEP_S = 900;
const MUSIC_LINK_MAX_AGE_S = 3600;

export const premiumOnly = () =>
  new AppError(
    403,
    presentationErrorCodes.premiumOnly,
    'Zelf dia’s kiezen, onderschriften, een titel- en slotdia en de video (MP4) horen bij Premium. Met Basis speelt de presentatie alle foto’s in de volgorde van de galerij.',
  );
const renderFailedMessage =
  'De video kon niet worden gemaakt. Probeer het opnieuw; lukt het dan nog niet, neem contact met ons op.';
const requesterGoneMessage =
  'De video is niet gemaakt: wie hem aanvroeg, beheert deze gedenkpagina niet meer. Vraag hem opnieuw aan.';
const renderLimitMessages = {
  memorial: 'Er wordt al een video gemaakt voor deze pagina. Probeer het opnieuw als die klaar is.',
  account: 'Je laat al genoeg video’s maken. Probeer het opnieuw als er een klaar is.',
};
const renderTimeoutMessage =
  'Het maken van de video duurde te lang en is gestopt. Kies minder dia’s of 720p en probeer het opnieuw.';

type MusicRow = {
  id: string;
  memorial_id: string;
  storage_key: string;
  content_type: string;
  file_name: string | null;
  size_bytes: string;
  sha256: string;
  duration_ms: number;
};
type SettingsRow = {
  slides: PresentationSlide[];
  seconds_per_slide: number;
  title_text: string | null;
  closing_text: string | null;
  updated_at: Date;
};
type VideoRow = {
  id: string;
  memorial_id: string;
  requested_by: string | null;
  resolution: PresentationResolution;
  status: 'queued' | 'rendering' | 'ready' | 'failed';
  progress: number;
  storage_key: string | null;
  size_bytes: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date;
  expires_at: Date | null;
};

const fileNamePattern = /[^\p{L}\p{N} ._()-]/gu;
const cleanFileName = (name: string | undefined) =>
  name ? name.replace(fileNamePattern, '').trim().slice(0, 120) || null : null;

/** Signed links for the music (short-lived, for the slideshow) and the video (the mailed download). */
function presentationLinks(db: Queryable, apiUrl: string) {
  // One key, two scopes: a music link never opens the video, nor the other way round.
  const music = signedLinks(db, 'presentation-url-key', 'presentation:music');
  const video = signedLinks(db, 'presentation-url-key', 'presentation:video');
  return {
    async musicUrl(id: string, open: boolean) {
      const base = `${apiUrl}/core/presentation-music/${id}`;
      if (open) return base;
      const now = Math.floor(Date.now() / 1000);
      const exp = Math.floor(now / MUSIC_LINK_STEP_S) * MUSIC_LINK_STEP_S + MUSIC_LINK_MAX_AGE_S;
      return `${base}?${await music.sign(id, exp * 1000)}`;
    },
    async videoUrl(id: string, expiresAt: Date) {
      return `${apiUrl}/core/presentation-video/${id}?${await video.sign(id, expiresAt)}`;
    },
    check(what: 'music' | 'video', id: string, exp?: string, sig?: string) {
      return what === 'music'
        ? music.check(id, exp, sig, { maxAgeS: MUSIC_LINK_MAX_AGE_S })
        : video.check(id, exp, sig);
    },
  };
}

/** A single `bytes=a-b` range of a file of `size` bytes; null for the whole file. */
export function parseRange(header: string | undefined, size: number) {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(size - Number(m[2]), 0) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start > end || start >= size) return 'invalid' as const;
  return { start, end };
}

const lifeYears = (birth: string | null, death: string | null) => {
  const b = birth?.slice(0, 4);
  const d = death?.slice(0, 4);
  return b && d ? `${b} – ${d}` : d ? `† ${d}` : b ? `* ${b}` : null;
};

/**
 * The memory presentation (issue 17; docs/keepsakes.md): music for every plan, the Premium builder and
 * the MP4 export. Music and settings: owners and editors change them; whoever may see the page gets them
 * with the slideshow.
 */
export function presentationService(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'> & {
    ffmpegPath: string | null;
    log?: { warn: (o: object, msg: string) => void };
  },
) {
  const { db, config, storage, outbox, queue, ffmpegPath } = deps;
  const access = memorialAccessService(db);
  const plans = planPolicy({ trialDays: config.TRIAL_DAYS });
  const links = presentationLinks(db, config.API_URL);
  const tmpDir = path.join(config.DATA_DIR, 'tmp');

  const userId = (caller: Caller) => (caller.kind === 'user' ? caller.userId : null);

  async function requireAdvanced(q: Queryable, memorialId: string) {
    const state = await plans.requireWritable(q, memorialId);
    if (!planAllows(state, 'advancedVideo')) throw premiumOnly();
    return state;
  }

  async function musicOf(memorialId: string, open: boolean): Promise<PresentationMusic | null> {
    const { rows } = await db.query<MusicRow>(
      'SELECT *, id::text AS id FROM presentation_music WHERE memorial_id = $1',
      [memorialId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      url: await links.musicUrl(r.id, open),
      contentType: r.content_type,
      fileName: r.file_name,
      durationMs: r.duration_ms,
      sizeBytes: Number(r.size_bytes),
    };
  }

  async function settingsOf(q: Queryable, memorialId: string): Promise<PresentationSettings | null> {
    const { rows } = await q.query<SettingsRow>(
      'SELECT slides, seconds_per_slide, title_text, closing_text, updated_at FROM presentation_settings WHERE memorial_id = $1',
      [memorialId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      slides: r.slides,
      secondsPerSlide: r.seconds_per_slide,
      titleText: r.title_text,
      closingText: r.closing_text,
      updatedAt: r.updated_at.toISOString(),
    };
  }

  // ---- the video ----

  async function videoState(row: VideoRow | undefined): Promise<PresentationVideoState> {
    const none: PresentationVideoState = {
      status: 'none',
      resolution: null,
      progress: 0,
      requestedAt: null,
      downloadUrl: null,
      expiresAt: null,
      sizeBytes: null,
      durationMs: null,
      error: null,
    };
    if (!row) return none;
    const live = row.status === 'ready' && row.expires_at && row.expires_at.getTime() > Date.now();
    if (row.status === 'ready' && !live) return none;
    return {
      status: row.status,
      resolution: row.resolution,
      progress: row.status === 'ready' ? 1 : Math.max(0, Math.min(1, row.progress)),
      requestedAt: row.created_at.toISOString(),
      downloadUrl: live ? await links.videoUrl(row.id, row.expires_at!) : null,
      expiresAt: live ? row.expires_at!.toISOString() : null,
      sizeBytes: live && row.size_bytes ? Number(row.size_bytes) : null,
      durationMs: live ? row.duration_ms : null,
      error: row.status === 'failed' ? (row.error ?? renderFailedMessage) : null,
    };
  }

  async function newestVideo(memorialId: string) {
    const { rows } = await db.query<VideoRow>(
      `SELECT *, id::text AS id FROM presentation_videos WHERE memorial_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [memorialId],
    );
    return rows[0];
  }

  /** The slides to render: the builder's choice, else title, every gallery photo, closing. */
  async function renderPlan(memorialId: string) {
    const { rows: mrows } = await db.query<{
      first_name: string;
      last_name: string;
      birth_date: string | null;
      death_date: string | null;
      quote: string | null;
    }>(
      'SELECT first_name, last_name, birth_date::text, death_date::text, quote FROM memorials WHERE id = $1',
      [memorialId],
    );
    const m = mrows[0];
    if (!m) throw new Error('memorial gone');
    const name = `${m.first_name} ${m.last_name}`;
    const years = lifeYears(m.birth_date, m.death_date);
    const settings = await settingsOf(db, memorialId);
    const { rows: photos } = await db.query<{ id: string; caption: string | null; storage_key: string }>(
      `SELECT m.id::text, m.caption, v.storage_key FROM media m
         JOIN LATERAL (SELECT storage_key FROM media_variants v WHERE v.media_id = m.id AND v.width IS NOT NULL
                        ORDER BY (v.name = 'original') DESC, v.width DESC, (v.content_type = 'image/jpeg') DESC LIMIT 1) v ON true
        WHERE m.memorial_id = $1 AND m.memory_id IS NULL AND m.kind = 'image' AND m.hidden_at IS NULL
          AND m.status <> 'processing'
        ORDER BY m.position, m.id`,
      [memorialId],
    );
    const { rows: memories } = await db.query<{
      id: string;
      year_label: string;
      body: string;
      author_name: string | null;
    }>(
      `SELECT x.id::text, x.year_label, x.body,
              CASE WHEN x.author_kind = 'guest' THEN x.author_name ELSE u.name END AS author_name
         FROM memories x LEFT JOIN users u ON u.id = x.author_user_id
        WHERE x.memorial_id = $1 AND x.status = 'published' AND x.hidden_at IS NULL`,
      [memorialId],
    );
    const photoById = new Map(photos.map((p) => [p.id, p]));
    const memoryById = new Map(memories.map((x) => [x.id, x]));
    const chosen: PresentationSlide[] =
      settings?.slides ?? photos.map((p) => ({ kind: 'photo' as const, id: p.id, caption: null }));
    const slides: (
      | { kind: 'text'; lines: Extract<RenderSlide, { kind: 'text' }>['lines'] }
      | { kind: 'photo'; key: string; caption: string | null }
    )[] = [];
    slides.push({
      kind: 'text',
      lines: [
        { text: settings?.titleText ?? name, size: 'large' },
        ...(years ? [{ text: years, size: 'medium' as const }] : []),
        ...(!settings?.titleText && m.quote
          ? [{ text: `“${m.quote}”`, size: 'small' as const, italic: true }]
          : []),
      ],
    });
    for (const s of chosen) {
      if (s.kind === 'photo') {
        const p = photoById.get(s.id);
        if (p) slides.push({ kind: 'photo', key: p.storage_key, caption: s.caption ?? p.caption });
      } else {
        const x = memoryById.get(s.id);
        if (x)
          slides.push({
            kind: 'text',
            lines: [
              ...(x.year_label ? [{ text: x.year_label.toUpperCase(), size: 'small' as const }] : []),
              { text: `“${x.body.slice(0, 600)}”`, size: 'medium', italic: true },
              ...(x.author_name ? [{ text: `— ${x.author_name}`, size: 'small' as const }] : []),
            ],
          });
      }
    }
    slides.push({
      kind: 'text',
      lines: [
        { text: settings?.closingText ?? 'In liefdevolle herinnering aan', size: 'medium' },
        { text: name, size: 'large' },
        ...(years ? [{ text: years, size: 'medium' as const }] : []),
      ],
    });
    return { name, slides, secondsPerSlide: settings?.secondsPerSlide ?? PRESENTATION_SECONDS_DEFAULT };
  }

  function videoMail(o: {
    to: string;
    name: string | null;
    subjectName: string;
    url: string;
    expiresAt: Date;
  }) {
    const hello = greeting(o.name);
    const until = `Deze link werkt tot ${dateNl(o.expiresAt)}; daarna kun je de video opnieuw laten maken.`;
    return {
      to: o.to,
      subject: `De video voor ${o.subjectName} staat klaar`,
      text: `${hello}\n\nDe video van de presentatie voor ${o.subjectName} is klaar. Je kunt hem hier downloaden:\n\n${o.url}\n\n${until}\nDeel deze link alleen met wie de video mag hebben.\n\nHartelijke groet,\nAandenken\n`,
      html: `<p>${escapeHtml(hello)}</p><p>De video van de presentatie voor ${escapeHtml(o.subjectName)} is klaar.</p><p><a href="${escapeHtml(o.url)}">Download de video (MP4)</a></p><p>${escapeHtml(until)}<br>Deel deze link alleen met wie de video mag hebben.</p><p>Hartelijke groet,<br>Aandenken</p>`,
    };
  }

  /** The background job: stills, ffmpeg, storage, the mail. One render at a time in this process. */
  async function render(videoId: string, attempt: { last: boolean }) {
    const { rows } = await db.query<VideoRow>(
      `UPDATE presentation_videos SET status = 'rendering', progress = 0, error = NULL
        WHERE id = $1 AND status IN ('queued', 'rendering') RETURNING *, id::text AS id`,
      [videoId],
    );
    const row = rows[0];
    if (!row) return;
    // Made on the requester's behalf: only while they still manage the page (nothing is read, stored or mailed).
    const stillManages = (q: Queryable) =>
      row.requested_by !== null && stillHasRole(q, row.requested_by, row.memorial_id, 'editor');
    const refuse = (q: Queryable) =>
      q.query(
        `UPDATE presentation_videos SET status = 'failed', finished_at = now(), error = $2
          WHERE id = $1 AND status = 'rendering'`,
        [videoId, requesterGoneMessage],
      );
    if (!(await stillManages(db))) {
      await refuse(db);
      return;
    }
    const workDir = path.join(tmpDir, `presentation-${videoId}-${crypto.randomUUID()}`);
    const output = path.join(workDir, 'video.mp4');
    let lastWrite = 0;
    const progress = (fraction: number) => {
      if (Date.now() - lastWrite < 1000) return;
      lastWrite = Date.now();
      void db
        .query(`UPDATE presentation_videos SET progress = $2 WHERE id = $1 AND status = 'rendering'`, [
          videoId,
          Math.round(fraction * 1000) / 1000,
        ])
        .catch(() => undefined);
    };
    try {
      if (!ffmpegPath) throw new Error('no ffmpeg');
      const result = await renderOneAtATime(async () => {
        const plan = await renderPlan(row.memorial_id);
        const slides: RenderSlide[] = [];
        for (const s of plan.slides) {
          slides.push(
            s.kind === 'photo' ? { kind: 'photo', image: await storage.read(s.key), caption: s.caption } : s,
          );
        }
        const { rows: music } = await db.query<{ storage_key: string }>(
          'SELECT storage_key FROM presentation_music WHERE memorial_id = $1',
          [row.memorial_id],
        );
        let musicPath: string | null = null;
        await fs.mkdir(workDir, { recursive: true });
        if (music[0]) {
          musicPath = path.join(workDir, 'music');
          await fs.writeFile(musicPath, await storage.read(music[0].storage_key));
        }
        const { durationMs } = await renderPresentationVideo({
          ffmpegPath,
          slides,
          secondsPerSlide: plan.secondsPerSlide,
          resolution: row.resolution,
          music: musicPath,
          workDir,
          output,
          timeoutMs: config.PRESENTATION_VIDEO_TIMEOUT_S * 1000,
          threads: config.PRESENTATION_VIDEO_THREADS,
          memoryMb: config.PRESENTATION_VIDEO_MEMORY_MB,
          onProgress: progress,
        });
        return { durationMs, name: plan.name };
      });
      const { size } = await fs.stat(output);
      const key = `${videoId}/video.mp4`;
      await storage.putFile(key, output);
      const expiresAt = new Date(Date.now() + PRESENTATION_VIDEO_TTL_DAYS * 86_400_000);
      const url = await links.videoUrl(videoId, expiresAt);
      const done = await db.transaction(async (tx) => {
        // Removed while it rendered: the file goes and nothing is mailed.
        if (!(await stillManages(tx))) {
          await refuse(tx);
          return false;
        }
        const { rows: updated } = await tx.query<{ email: string | null; name: string | null }>(
          `UPDATE presentation_videos v SET status = 'ready', progress = 1, storage_key = $2, size_bytes = $3,
                  duration_ms = $4, finished_at = now(), expires_at = $5
             WHERE v.id = $1 AND v.status = 'rendering'
           RETURNING (SELECT email FROM users WHERE id = v.requested_by), (SELECT name FROM users WHERE id = v.requested_by)`,
          [videoId, key, size, result.durationMs, expiresAt],
        );
        const u = updated[0];
        if (!u) return false;
        await queue.enqueue(
          tx,
          PRESENTATION_VIDEO_EXPIRE_JOB,
          { videoId },
          { delayMs: expiresAt.getTime() - Date.now(), maxAttempts: 10 },
        );
        if (u.email)
          await outbox.enqueue(
            tx,
            videoMail({ to: u.email, name: u.name, subjectName: result.name, url, expiresAt }),
          );
        return true;
      });
      // Replaced or deleted while it rendered: its file goes too.
      if (!done) await storage.deletePrefix(videoId);
    } catch (err) {
      const timeout = err instanceof RenderTimeout;
      if (attempt.last || timeout)
        await db.query(
          `UPDATE presentation_videos SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`,
          [videoId, timeout ? renderTimeoutMessage : renderFailedMessage],
        );
      else await db.query(`UPDATE presentation_videos SET status = 'queued' WHERE id = $1`, [videoId]);
      deps.log?.warn({ videoId, err: (err as Error).message }, 'presentation video render failed');
      // A timeout is not retried (it would time out again); other failures are, by the queue.
      if (!timeout) throw err;
    } finally {
      await fs.rm(workDir, { recursive: true, force: true });
    }
  }

  async function expireVideo(videoId: string) {
    const { rows } = await db.query<{ expires_at: Date | null }>(
      'SELECT expires_at FROM presentation_videos WHERE id = $1',
      [videoId],
    );
    const expiresAt = rows[0]?.expires_at;
    if (!expiresAt) return;
    const wait = expiresAt.getTime() - Date.now();
    if (wait > 0) {
      await queue.enqueue(db, PRESENTATION_VIDEO_EXPIRE_JOB, { videoId }, { delayMs: wait, maxAttempts: 10 });
      return;
    }
    await db.query('DELETE FROM presentation_videos WHERE id = $1 AND expires_at <= now()', [videoId]);
  }

  return {
    render,
    expireVideo,

    async info(caller: Caller, memorialId: string): Promise<PresentationInfo> {
      const acc = await access.require(caller, memorialId);
      const state = await plans.stateOf(db, memorialId);
      const advancedVideo = planAllows(state, 'advancedVideo');
      const open = acc.visibility === 'public' && acc.status === 'active';
      return {
        memorialId,
        music: await musicOf(memorialId, open),
        settings: advancedVideo ? await settingsOf(db, memorialId) : null,
        advancedVideo,
        canEdit: acc.role === 'owner' || acc.role === 'editor',
        videoAndMusic: ffmpegPath !== null,
      };
    },

    async authorizeMusicUpload(caller: Caller, memorialId: string) {
      await access.require(caller, memorialId, 'editor');
      await plans.requireWritable(db, memorialId);
    },

    /** Stores checked music for the page, replacing what was there (its file is deleted by the trigger). */
    async setMusic(caller: Caller, memorialId: string, file: ReceivedFile) {
      await access.require(caller, memorialId, 'editor');
      const id = crypto.randomUUID();
      await fs.mkdir(tmpDir, { recursive: true });
      const cleaned = path.join(tmpDir, `music-${id}`);
      const audio = await checkAndCleanAudio(ffmpegPath, file, cleaned);
      const key = `${id}/music`;
      try {
        await storage.putFile(key, cleaned);
        await db.transaction(async (tx) => {
          await memorialAccessService(tx).require(caller, memorialId, 'editor');
          await plans.requireWritable(tx, memorialId, true);
          await tx.query('DELETE FROM presentation_music WHERE memorial_id = $1', [memorialId]);
          await tx.query(
            `INSERT INTO presentation_music (id, memorial_id, storage_key, content_type, file_name, size_bytes, sha256, duration_ms, uploaded_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              id,
              memorialId,
              key,
              audio.contentType,
              cleanFileName(file.fileName),
              audio.sizeBytes,
              audio.sha256,
              audio.durationMs,
              userId(caller),
            ],
          );
          await recordAudit(tx, {
            memorialId,
            actor: caller,
            action: 'memorial.presentation_music_added',
            targetType: 'presentation_music',
            targetId: id,
            details: { contentType: audio.contentType, durationMs: audio.durationMs },
          });
        });
      } catch (err) {
        await fs.rm(cleaned, { force: true });
        await storage.deletePrefix(id);
        throw err;
      }
      const acc = await access.require(caller, memorialId);
      return (await musicOf(memorialId, acc.visibility === 'public' && acc.status === 'active'))!;
    },

    async removeMusic(caller: Caller, memorialId: string) {
      await db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        const { rows } = await tx.query<{ id: string }>(
          'DELETE FROM presentation_music WHERE memorial_id = $1 RETURNING id::text',
          [memorialId],
        );
        if (!rows[0]) throw notFound('Er staat geen muziek bij deze presentatie.');
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.presentation_music_removed',
          targetType: 'presentation_music',
          targetId: rows[0].id,
        });
      });
    },

    /** The music's bytes: with a valid signed link, or for whoever may see the page. */
    async musicFile(o: {
      fileId: string;
      exp?: string;
      sig?: string;
      range?: string;
      caller: () => Promise<Caller>;
    }): Promise<{ status: 200 | 206; headers: Record<string, string>; body: Readable }> {
      if (!isUuid(o.fileId)) throw notFound();
      const id = o.fileId.toLowerCase();
      const { rows } = await db.query<MusicRow>(
        'SELECT *, id::text AS id, memorial_id::text AS memorial_id FROM presentation_music WHERE id = $1',
        [id],
      );
      const row = rows[0];
      if (!row) throw notFound();
      const signature = o.exp || o.sig ? await links.check('music', id, o.exp, o.sig) : 'invalid';
      let open = false;
      if (signature !== 'valid') {
        const acc = await access.resolve(await o.caller(), row.memorial_id);
        if (!acc?.role) {
          if (signature === 'expired')
            throw new AppError(403, 'MEDIA_LINK_EXPIRED', 'Deze link is verlopen. Laad de pagina opnieuw.');
          throw notFound();
        }
        open = acc.visibility === 'public' && acc.status === 'active';
      }
      const size = Number(row.size_bytes);
      const range = parseRange(o.range, size);
      if (range === 'invalid')
        throw new AppError(416, 'MEDIA_RANGE_NOT_SATISFIABLE', 'Dit deel van het bestand bestaat niet.');
      const body = await streamStored(storage, row.storage_key, () => notFound(), range ?? undefined);
      const headers: Record<string, string> = {
        'content-type': row.content_type,
        'accept-ranges': 'bytes',
        etag: `"${row.sha256.slice(0, 32)}"`,
        'cache-control': open ? 'public, max-age=86400' : 'private, max-age=900',
        'cross-origin-resource-policy': 'cross-origin',
        'content-length': String(range ? range.end - range.start + 1 : size),
      };
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      return { status: range ? 206 : 200, headers, body };
    },

    async saveSettings(caller: Caller, memorialId: string, input: PresentationSettingsUpdate) {
      await access.require(caller, memorialId, 'editor');
      await requireAdvanced(db, memorialId);
      const seen = new Set<string>();
      for (const s of input.slides) {
        const key = s.id.toLowerCase();
        if (seen.has(key)) throw badRequest('Elke foto of herinnering kan maar één keer in de presentatie.');
        seen.add(key);
      }
      const photoIds = input.slides.filter((s) => s.kind === 'photo').map((s) => s.id);
      const memoryIds = input.slides.filter((s) => s.kind === 'memory').map((s) => s.id);
      const { rows: found } = await db.query<{ n: number; m: number }>(
        `SELECT (SELECT count(*)::int FROM media WHERE memorial_id = $1 AND id = ANY($2::uuid[]) AND memory_id IS NULL
                   AND kind = 'image' AND hidden_at IS NULL) AS n,
                (SELECT count(*)::int FROM memories WHERE memorial_id = $1 AND id = ANY($3::uuid[])
                   AND status = 'published' AND hidden_at IS NULL) AS m`,
        [memorialId, photoIds, memoryIds],
      );
      if (found[0]!.n !== photoIds.length || found[0]!.m !== memoryIds.length)
        throw badRequest(
          'Een gekozen foto of herinnering staat niet (meer) op deze pagina. Laad de pagina opnieuw en kies opnieuw.',
        );
      const blankToNull = (s: string | null) => (s && s.trim() ? s.trim() : null);
      const slides = input.slides.map((s) => ({
        kind: s.kind,
        id: s.id.toLowerCase(),
        caption: s.kind === 'photo' ? blankToNull(s.caption) : null,
      }));
      return db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        await requireAdvanced(tx, memorialId);
        await tx.query(
          `INSERT INTO presentation_settings (memorial_id, slides, seconds_per_slide, title_text, closing_text, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (memorial_id) DO UPDATE SET slides = EXCLUDED.slides, seconds_per_slide = EXCLUDED.seconds_per_slide,
             title_text = EXCLUDED.title_text, closing_text = EXCLUDED.closing_text, updated_by = EXCLUDED.updated_by,
             updated_at = now()`,
          [
            memorialId,
            JSON.stringify(slides),
            input.secondsPerSlide,
            blankToNull(input.titleText),
            blankToNull(input.closingText),
            userId(caller),
          ],
        );
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.presentation_settings_updated',
          details: { slides: slides.length, secondsPerSlide: input.secondsPerSlide },
        });
        return (await settingsOf(tx, memorialId))!;
      });
    },

    async resetSettings(caller: Caller, memorialId: string) {
      await access.require(caller, memorialId, 'editor');
      await requireAdvanced(db, memorialId);
      await db.query('DELETE FROM presentation_settings WHERE memorial_id = $1', [memorialId]);
    },

    async videoStateFor(caller: Caller, memorialId: string) {
      await access.require(caller, memorialId, 'editor');
      if (caller.kind !== 'user') throw unauthorized();
      await requireAdvanced(db, memorialId);
      return videoState(await newestVideo(memorialId));
    },

    /** Starts a render unless one is under way for the page; the older video (and its file) goes. */
    async requestVideo(caller: Caller, memorialId: string, resolution: PresentationResolution) {
      await access.require(caller, memorialId, 'editor');
      if (caller.kind !== 'user') throw unauthorized();
      if (!ffmpegPath) throw videoAndMusicOff(503);
      const row = await db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        await requireAdvanced(tx, memorialId);
        await tx.query('SELECT 1 FROM memorials WHERE id = $1 FOR UPDATE', [memorialId]);
        const { rows: busy } = await tx.query<VideoRow>(
          `SELECT *, id::text AS id FROM presentation_videos WHERE memorial_id = $1 AND status IN ('queued', 'rendering')
            ORDER BY created_at DESC LIMIT 1`,
          [memorialId],
        );
        if (busy[0]) return busy[0];
        const owner = { memorialId, userId: caller.userId };
        await reserveHeavyJob(deps, tx, PRESENTATION_RENDER_JOB, owner, renderLimitMessages);
        await tx.query('DELETE FROM presentation_videos WHERE memorial_id = $1 OR expires_at < now()', [
          memorialId,
        ]);
        const { rows } = await tx.query<VideoRow>(
          `INSERT INTO presentation_videos (memorial_id, requested_by, resolution) VALUES ($1, $2, $3)
           RETURNING *, id::text AS id`,
          [memorialId, caller.userId, resolution],
        );
        const created = rows[0]!;
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.presentation_video_requested',
          targetType: 'presentation_video',
          targetId: created.id,
          details: { resolution },
        });
        await queue.enqueue(tx, PRESENTATION_RENDER_JOB, { videoId: created.id }, { maxAttempts: 2, owner });
        return created;
      });
      queue.notify();
      return videoState(row);
    },

    /** The MP4 behind a signed link (the mail's, or the one the builder shows its owners and editors). */
    async videoFile(o: { fileId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) {
      if (!isUuid(o.fileId)) throw notFound();
      const id = o.fileId.toLowerCase();
      const check = await links.check('video', id, o.exp, o.sig);
      if (check === 'invalid')
        throw new AppError(
          403,
          presentationErrorCodes.videoLinkInvalid,
          'Deze downloadlink klopt niet. Gebruik de link uit de mail.',
        );
      const expired = () =>
        new AppError(
          403,
          presentationErrorCodes.videoLinkExpired,
          'Deze downloadlink is verlopen. Laat de video opnieuw maken.',
        );
      if (check === 'expired') throw expired();
      const { rows } = await db.query<VideoRow & { first_name: string; last_name: string }>(
        `SELECT v.*, v.id::text AS id, m.first_name, m.last_name FROM presentation_videos v
           JOIN memorials m ON m.id = v.memorial_id WHERE v.id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row || row.status !== 'ready' || !row.storage_key) throw notFound('Deze video bestaat niet meer.');
      if (!row.expires_at || row.expires_at.getTime() <= Date.now()) throw expired();
      // The link opens without signing in (from the mail); signed in, only the page's owners and editors.
      const caller = await o.caller();
      if (caller.kind !== 'anonymous') {
        const acc = await access.resolve(caller, row.memorial_id);
        if (acc?.role !== 'owner' && acc?.role !== 'editor')
          throw new AppError(
            403,
            presentationErrorCodes.videoNotYours,
            'Deze video is alleen voor de beheerders van de gedenkpagina.',
          );
      }
      const slug =
        `${row.first_name} ${row.last_name}`
          .normalize('NFKD')
          .replace(/[^\w\s-]/g, '')
          .trim()
          .replace(/\s+/g, '-')
          .toLowerCase()
          .slice(0, 60) || 'presentatie';
      const body = await streamStored(storage, row.storage_key, () =>
        notFound('Deze video bestaat niet meer.'),
      );
      return {
        filename: `presentatie-${slug}-${row.resolution}.mp4`,
        size: Number(row.size_bytes),
        body,
      };
    },
  };
}
export type PresentationService = ReturnType<typeof presentationService>;
