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
import { byteRange } from '../../lib/http-range.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors.ts';
import { fileSlug, generatedFiles } from '../../lib/generated-files.ts';
import { videoMail } from './mails.ts';
import {
  presentationRepository,
  presentationVideoStore,
  type MadeVideo,
  type VideoFileRow,
  type VideoJobRow,
  type VideoRow,
} from './repository.ts';
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
import { lockMemorial } from '../../shared/memorial-row.ts';

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

const fileNamePattern = /[^\p{L}\p{N} ._()-]/gu;
const cleanFileName = (name: string | undefined) =>
  name ? name.replace(fileNamePattern, '').trim().slice(0, 120) || null : null;

/** Signed links for the music (short-lived, for the slideshow); the video's are the pipeline's. */
function presentationLinks(db: Queryable, apiUrl: string) {
  // One key, two scopes (the video's is 'presentation:video'): a music link never opens the video.
  const music = signedLinks(db, 'presentation-url-key', 'presentation:music');
  return {
    async musicUrl(id: string, open: boolean) {
      const base = `${apiUrl}/core/presentation-music/${id}`;
      if (open) return base;
      const now = Math.floor(Date.now() / 1000);
      const exp = Math.floor(now / MUSIC_LINK_STEP_S) * MUSIC_LINK_STEP_S + MUSIC_LINK_MAX_AGE_S;
      return `${base}?${await music.sign(id, exp * 1000)}`;
    },
    check(id: string, exp?: string, sig?: string) {
      return music.check(id, exp, sig, { maxAgeS: MUSIC_LINK_MAX_AGE_S });
    },
  };
}

const lifeYears = (birth: string | null, death: string | null) => {
  const b = birth?.slice(0, 4);
  const d = death?.slice(0, 4);
  return b && d ? `${b} – ${d}` : d ? `† ${d}` : b ? `* ${b}` : null;
};

/**
 * The memory presentation (docs/keepsakes.md): music for every plan, the Premium builder and
 * the MP4 export. Music and settings: owners and editors change them; whoever may see the page gets them
 * with the slideshow.
 */
export function presentationService(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'> & {
    ffmpegPath: string | null;
    log?: { warn: (o: object, msg: string) => void };
  },
) {
  const { db, config, storage, ffmpegPath } = deps;
  const access = memorialAccessService(db);
  const repo = presentationRepository(db);
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
    const r = await repo.music(memorialId);
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
    const r = await presentationRepository(q).settings(memorialId);
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
      downloadUrl: live ? await files.linkTo(row.id, row.expires_at!) : null,
      expiresAt: live ? row.expires_at!.toISOString() : null,
      sizeBytes: live && row.size_bytes ? Number(row.size_bytes) : null,
      durationMs: live ? row.duration_ms : null,
      error: row.status === 'failed' ? (row.error ?? renderFailedMessage) : null,
    };
  }

  async function newestVideo(memorialId: string) {
    return repo.newestVideo(memorialId);
  }

  /** The slides to render: the builder's choice, else title, every gallery photo, closing. */
  async function renderPlan(memorialId: string) {
    const m = await repo.memorialForSlides(memorialId);
    const name = `${m.first_name} ${m.last_name}`;
    const years = lifeYears(m.birth_date, m.death_date);
    const settings = await settingsOf(db, memorialId);
    const { photos, memories } = await repo.slideSources(memorialId);
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

  /** The background job (lib/generated-files.ts): stills, ffmpeg, storage, the link mailed; expired, it goes. */
  const files = generatedFiles<VideoJobRow, MadeVideo, VideoFileRow>(deps, {
    name: 'presentation',
    job: { kind: PRESENTATION_RENDER_JOB, lane: 'render', maxAttempts: 2, idField: 'videoId' },
    expireJob: PRESENTATION_VIDEO_EXPIRE_JOB,
    storageName: 'video.mp4',
    ttlMs: PRESENTATION_VIDEO_TTL_DAYS * 86_400_000,
    // The music's links have the same key in another scope: a music link never opens the video.
    link: {
      secretName: 'presentation-url-key',
      scope: 'presentation:video',
      path: (id) => `/core/presentation-video/${id}`,
    },
    linkMessages: {
      invalid: {
        code: presentationErrorCodes.videoLinkInvalid,
        message: 'Deze downloadlink klopt niet. Gebruik de link uit de mail.',
      },
      expired: {
        code: presentationErrorCodes.videoLinkExpired,
        message: 'Deze downloadlink is verlopen. Laat de video opnieuw maken.',
      },
      gone: 'Deze video bestaat niet meer.',
    },
    // Made on the requester's behalf: only while they still manage the page.
    stillAllowed: async (q, row) =>
      row.requested_by !== null && stillHasRole(q, row.requested_by, row.memorial_id, 'editor'),
    refusedMessage: requesterGoneMessage,
    async make(row, ctx) {
      if (!ffmpegPath) throw new Error('no ffmpeg');
      let lastWrite = 0;
      const progress = (fraction: number) => {
        if (Date.now() - lastWrite < 1000) return;
        lastWrite = Date.now();
        void ctx.progress(fraction).catch(() => undefined);
      };
      // One render at a time in this process.
      return renderOneAtATime(async () => {
        const plan = await renderPlan(row.memorial_id);
        const slides: RenderSlide[] = [];
        for (const s of plan.slides) {
          slides.push(
            s.kind === 'photo' ? { kind: 'photo', image: await storage.read(s.key), caption: s.caption } : s,
          );
        }
        const musicKey = await repo.musicKey(row.memorial_id);
        let musicPath: string | null = null;
        if (musicKey) {
          musicPath = path.join(ctx.workDir, 'music');
          await fs.writeFile(musicPath, await storage.read(musicKey));
        }
        const { durationMs } = await renderPresentationVideo({
          ffmpegPath,
          slides,
          secondsPerSlide: plan.secondsPerSlide,
          resolution: row.resolution,
          music: musicPath,
          workDir: ctx.workDir,
          output: ctx.output,
          timeoutMs: config.PRESENTATION_VIDEO_TIMEOUT_S * 1000,
          threads: config.PRESENTATION_VIDEO_THREADS,
          memoryMb: config.PRESENTATION_VIDEO_MEMORY_MB,
          onProgress: progress,
        });
        return { durationMs, name: plan.name };
      });
    },
    mail: (to, made, link) =>
      videoMail({
        to: to.email,
        name: to.name,
        subjectName: made.name,
        url: link.url!,
        expiresAt: link.expiresAt!,
      }),
    // A timeout is not retried (it would time out again); other failures are, by the queue.
    onFailure: (err) =>
      err instanceof RenderTimeout
        ? { retry: false, message: renderTimeoutMessage }
        : { retry: true, message: renderFailedMessage },
    // The link opens without signing in (from the mail); signed in, only the page's owners and editors.
    async mayOpen(caller, file) {
      if (caller.kind === 'anonymous') return;
      const acc = await access.resolve(caller, file.memorialId);
      if (acc?.role !== 'owner' && acc?.role !== 'editor')
        throw new AppError(
          403,
          presentationErrorCodes.videoNotYours,
          'Deze video is alleen voor de beheerders van de gedenkpagina.',
        );
    },
    fileName: (file) => `presentatie-${fileSlug(file.name, 'presentatie')}-${file.resolution}.mp4`,
    store: presentationVideoStore(db, renderFailedMessage),
  });

  return {
    /** The module's jobs: the render and the clean-up when the link expires. */
    jobs: files.jobs,
    render: (videoId: string, attempt: { last: boolean }) => files.run(videoId, attempt),
    expireVideo: (videoId: string) => files.expire(videoId),

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
          await presentationRepository(tx).replaceMusic({
            id,
            memorialId,
            key,
            contentType: audio.contentType,
            fileName: cleanFileName(file.fileName),
            sizeBytes: audio.sizeBytes,
            sha256: audio.sha256,
            durationMs: audio.durationMs,
            uploadedBy: userId(caller),
          });
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
        const removedId = await presentationRepository(tx).removeMusic(memorialId);
        if (!removedId) throw notFound('Er staat geen muziek bij deze presentatie.');
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.presentation_music_removed',
          targetType: 'presentation_music',
          targetId: removedId,
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
      const row = await repo.musicById(id);
      if (!row) throw notFound();
      const signature = o.exp || o.sig ? await links.check(id, o.exp, o.sig) : 'invalid';
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
      const range = byteRange(o.range, size);
      if (range === 'unsatisfiable')
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
      const found = await repo.countChoosable(memorialId, photoIds, memoryIds);
      if (found.n !== photoIds.length || found.m !== memoryIds.length)
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
        await presentationRepository(tx).saveSettings(memorialId, {
          slides: JSON.stringify(slides),
          secondsPerSlide: input.secondsPerSlide,
          titleText: blankToNull(input.titleText),
          closingText: blankToNull(input.closingText),
          updatedBy: userId(caller),
        });
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
      await repo.resetSettings(memorialId);
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
        await lockMemorial(tx, memorialId);
        const videos = presentationRepository(tx);
        const busy = await videos.videoUnderway(memorialId);
        if (busy) return busy;
        const owner = { memorialId, userId: caller.userId };
        await reserveHeavyJob(deps, tx, PRESENTATION_RENDER_JOB, owner, renderLimitMessages);
        const created = await videos.replaceVideo(memorialId, caller.userId, resolution);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.presentation_video_requested',
          targetType: 'presentation_video',
          targetId: created.id,
          details: { resolution },
        });
        await files.enqueue(tx, created.id, owner);
        return created;
      });
      files.notify();
      return videoState(row);
    },

    /** The MP4 behind a signed link (the mail's, or the one the builder shows its owners and editors). */
    videoFile: (o: { fileId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) =>
      files.open({ id: o.fileId, exp: o.exp, sig: o.sig, caller: o.caller }),
  };
}
export type PresentationService = ReturnType<typeof presentationService>;
