import { EXPORT_LINK_TTL_DAYS, type ExportState } from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, unauthorized } from '../../lib/errors.ts';
import { fileSlug, generatedFiles } from '../../lib/generated-files.ts';
import { dateNl } from '../../lib/mail-format.ts';
import { exportMail } from './mails.ts';
import { recordAudit } from '../../shared/audit.ts';
import { reserveHeavyJob, stillHasRole } from '../../shared/heavy-jobs.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { renderStaticPage, type ExportFile } from './html.ts';
import { writeZip, type ZipWriter } from './zip.ts';
import {
  exportFileStore,
  exportsRepository,
  type ExportFileRow,
  type ExportJobRow,
  type ExportRow,
  type MediaPick,
} from './repository.ts';

export const EXPORT_BUILD_JOB = 'export.build';
/** Deletes an export once its link has expired (payload: exportId); the row's delete trigger removes the file. */
export const EXPORT_EXPIRE_JOB = 'export.expire';
const FILE_NAME = 'export.zip';

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

export function exportService(deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'>) {
  const { db, config, storage } = deps;
  const limitMessages = {
    memorial: 'Er worden al genoeg exports van deze pagina gemaakt. Probeer het opnieuw als er een klaar is.',
    account: 'Er worden al genoeg exports voor je gemaakt. Probeer het opnieuw als er een klaar is.',
  };
  /** Why a memorial export was not made: its requester is no longer an owner. */
  const noLongerOwner = 'De export is niet gemaakt: je bent geen eigenaar van deze gedenkpagina meer.';
  const linkExpiredMessage = 'Deze downloadlink is verlopen. Vraag een nieuwe export aan.';

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
  const downloadUrl = (id: string, expiresAt: Date) => files.linkTo(id, expiresAt);

  async function newest(userId: string, memorialId: string | null) {
    return exportsRepository(db).newest(userId, memorialId);
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
      const r = exportsRepository(tx);
      const started = await r.preparing(caller.userId, memorialId);
      if (started) return started;
      const created = await r.replace(caller.userId, memorialId);
      if (memorialId)
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.export_requested',
          targetType: 'export',
          targetId: created.id,
        });
      await files.enqueue(tx, created.id, owner);
      return created;
    });
    files.notify();
    return state(row);
  }

  // ---- building ----

  async function addMedia(zip: ZipWriter, items: MediaPick[]) {
    for (const m of items) await zip.stream(mediaPath(m), await storage.stream(m.storage_key));
  }

  async function buildMemorial(zip: ZipWriter, memorialId: string, now: Date) {
    const { m, memories, media, candles } = await exportsRepository(db).memorialData(memorialId);
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
    const { user, account, memberships, memories, media, candles, loves, audit } = await exportsRepository(
      db,
    ).personalData(userId, config.embeddedIdentity);
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

  /** The background job (lib/generated-files.ts): the zip, storage, the link mailed; expired, it goes. */
  const files = generatedFiles<ExportJobRow, { subjectName: string | null }, ExportFileRow>(deps, {
    name: 'export',
    job: { kind: EXPORT_BUILD_JOB, lane: 'files', maxAttempts: 3, idField: 'exportId' },
    expireJob: EXPORT_EXPIRE_JOB,
    storageName: FILE_NAME,
    ttlMs: EXPORT_LINK_TTL_DAYS * 24 * 3600_000,
    link: { secretName: 'export-url-key', scope: 'export', path: (id) => `/core/export/${id}/download` },
    linkMessages: {
      invalid: {
        code: 'EXPORT_LINK_INVALID',
        message: 'Deze downloadlink klopt niet. Gebruik de link uit de mail.',
      },
      expired: { code: 'EXPORT_LINK_EXPIRED', message: linkExpiredMessage },
      gone: 'Deze export bestaat niet meer.',
    },
    // A memorial export is built on the requester's behalf: only while they are still an owner.
    stillAllowed: (q, row) =>
      row.memorialId ? stillHasRole(q, row.user_id, row.memorialId, 'owner') : Promise.resolve(true),
    refusedMessage: noLongerOwner,
    async make(row, { output }) {
      const now = new Date();
      let subjectName: string | null = null;
      await writeZip(output, async (zip) => {
        subjectName = row.memorial_id
          ? (await buildMemorial(zip, row.memorial_id, now)).subjectName
          : (await buildPersonal(zip, row.user_id, now)).subjectName;
      });
      return { subjectName };
    },
    mail: (to, made, link) =>
      exportMail({
        to: to.email,
        name: to.name,
        subjectName: made.subjectName,
        url: link.url!,
        expiresAt: link.expiresAt!,
      }),
    mayOpen: async (caller, file) => {
      // The link is the key, but a signed-in person who is not the one who asked for it is refused.
      if (caller.kind === 'guest' || (caller.kind === 'user' && caller.userId !== file.userId))
        throw new AppError(403, 'EXPORT_NOT_YOURS', 'Deze download is voor iemand anders aangevraagd.');
    },
    fileName: (file) => {
      const day = file.createdAt.toISOString().slice(0, 10);
      return file.kind === 'memorial'
        ? `aandenken-${fileSlug(file.subjectName ?? '', 'export')}-${day}.zip`
        : `aandenken-mijn-gegevens-${day}.zip`;
    },
    store: exportFileStore(db),
  });

  return {
    /** The module's jobs: the build and the clean-up when the link expires. */
    jobs: files.jobs,
    build: (exportId: string, attempt: { last: boolean }) => files.run(exportId, attempt),
    expire: (exportId: string) => files.expire(exportId),
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
    download: (o: { exportId: string; exp?: string; sig?: string; caller: () => Promise<Caller> }) =>
      files.open({ id: o.exportId, exp: o.exp, sig: o.sig, caller: o.caller }),
  };
}
export type ExportService = ReturnType<typeof exportService>;
