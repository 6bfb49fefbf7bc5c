import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { EXAMPLES_SYSTEM_USER_ID } from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { renderIllustration } from '../../lib/media/image.ts';
import type { ReceivedFile } from '../../lib/media/upload.ts';
import { recordAudit } from '../../shared/audit.ts';
import { mediaService } from '../media/service.ts';
import { accessCodeCrypto } from '../../shared/access-code.ts';
import { sanitizeBiography } from '../../shared/sanitize-biography.ts';
import {
  exampleMemorials as defaultContent,
  type ExampleMemorialContent,
  type ExamplePhoto,
} from './content.ts';
import { examplesRepository } from './repository.ts';

const illustrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'illustrations');
const SYSTEM_USER_NAME = 'Aandenken (voorbeeld)';
/** Width of the JPEG rendered from each illustration (the pipeline makes 320, 640 and 1280 from it). */
const PHOTO_WIDTH = 1600;
/** The illustrations are drawn 1200 wide; render them sharp at PHOTO_WIDTH instead of scaling a small raster up. */
const SVG_DENSITY = (72 * PHOTO_WIDTH) / 1200;

export interface SeedExamplesDeps extends Pick<Deps, 'db' | 'storage' | 'queue' | 'signer'> {
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Stops between two steps (shutdown); what was left half-made is made again on the next start. */
  signal?: AbortSignal;
  /** For tests: other content than the three shipped examples. */
  content?: readonly ExampleMemorialContent[];
}

export interface SeedResult {
  created: string[];
  skipped: string[];
}

/** Renders an illustration (or a detail of it) to a JPEG in a temporary file, as if it were uploaded. */
async function renderPhoto(photo: ExamplePhoto, tmpDir: string): Promise<ReceivedFile> {
  const data = await renderIllustration({
    svg: await fs.readFile(path.join(illustrationsDir, `${photo.file}.svg`)),
    density: SVG_DENSITY,
    width: PHOTO_WIDTH,
    ...(photo.crop ? { crop: photo.crop } : {}),
  });
  const file = path.join(tmpDir, `${crypto.randomUUID()}.jpg`);
  await fs.writeFile(file, data);
  return {
    path: file,
    sizeBytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    declaredType: 'image/jpeg',
    head: data.subarray(0, 64),
  };
}

/**
 * Creates the example memorials (public, active, owned by the `system:examples` user) unless they
 * exist. Idempotent: a memorial that is already active is left alone; one left half-made by an
 * interrupted start (still a concept) is removed and made again. Photos go through the real media
 * pipeline, so their variants and URLs behave like uploads.
 */
export async function seedExamples(deps: SeedExamplesDeps): Promise<SeedResult> {
  const { db, log } = deps;
  const repo = examplesRepository(db);
  const codes = accessCodeCrypto(db);
  // The queue only gets jobs here: the running app's worker renders the remaining variants.
  const media = mediaService({ db, storage: deps.storage, queue: deps.queue, signer: deps.signer });
  const caller: Caller = {
    kind: 'user',
    userId: EXAMPLES_SYSTEM_USER_ID,
    email: null,
    name: SYSTEM_USER_NAME,
  };
  const result: SeedResult = { created: [], skipped: [] };

  for (const example of deps.content ?? defaultContent) {
    if (deps.signal?.aborted) break;
    const existing = await repo.findMemorial(example.id);
    if (existing && existing.status !== 'concept') {
      result.skipped.push(example.id);
      continue;
    }
    if (existing) {
      log.warn({ memorialId: example.id }, 'example memorial was left incomplete; making it again');
      await repo.deleteMemorial(example.id);
    }

    const code = codes.generate();
    const [codeHash, codeEncrypted] = [await codes.hash(code), await codes.encrypt(code)];
    const memoryIds = await db.transaction(async (tx) => {
      const r = examplesRepository(tx);
      await r.ensureSystemUser(tx, EXAMPLES_SYSTEM_USER_ID, SYSTEM_USER_NAME);
      const inserted = await r.insertMemorial(tx, {
        ...example,
        biographyHtml: sanitizeBiography(example.biographyHtml),
        createdBy: EXAMPLES_SYSTEM_USER_ID,
        codeHash,
        codeEncrypted,
      });
      if (!inserted) return null;
      await r.insertOwner(tx, example.id, EXAMPLES_SYSTEM_USER_ID);
      await recordAudit(tx, {
        memorialId: example.id,
        actor: caller,
        action: 'memorial.created',
        details: { example: example.key },
      });
      const ids: string[] = [];
      for (const m of example.memories) {
        const id = await r.insertMemory(tx, {
          memorialId: example.id,
          yearLabel: m.yearLabel,
          text: m.text,
          authorName: m.author,
          daysAgo: m.daysAgo,
        });
        await r.insertLoves(tx, id, m.lovedBy);
        ids.push(id);
      }
      for (const c of example.candles) {
        await r.insertCandle(tx, {
          memorialId: example.id,
          kind: c.kind,
          name: c.name,
          message: c.message ?? null,
          hoursAgo: c.hoursAgo,
        });
      }
      return ids;
    });
    if (!memoryIds) {
      // Another process created it at the same moment.
      result.skipped.push(example.id);
      continue;
    }

    const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-examples-'));
    try {
      let coverId: string | null = null;
      for (const photo of example.gallery) {
        if (deps.signal?.aborted) return result;
        const item = await media.addToGallery(
          caller,
          { memorialId: example.id, caption: photo.caption },
          await renderPhoto(photo, tmpDir),
        );
        coverId ??= item.id;
      }
      for (const [i, m] of example.memories.entries()) {
        for (const photo of m.photos ?? []) {
          if (deps.signal?.aborted) return result;
          await media.addToMemory(caller, { memoryId: memoryIds[i]! }, await renderPhoto(photo, tmpDir));
        }
      }
      await repo.setCoverAndActivate(
        db,
        example.id,
        coverId,
        Math.max(...example.memories.map((m) => m.daysAgo), 1) + 1,
      );
    } finally {
      await fs.rm(tmpDir, { recursive: true, force: true });
    }
    result.created.push(example.id);
    log.info(
      { memorialId: example.id, name: `${example.firstName} ${example.lastName}` },
      'example memorial created',
    );
  }
  return result;
}
