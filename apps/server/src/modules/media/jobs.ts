import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../lib/jobs/job-queue.ts';
import { handle, idJob, registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { renderRemainingVariants } from '../../lib/media/pipeline.ts';
import type { MediaStorage } from '../../lib/media/storage.ts';
import { mediaRepository } from './repository.ts';
import { MEDIA_VARIANTS_JOB } from './service.ts';

/** Kind queued by the `media` delete trigger (migration 032) for every removed media row. */
export const MEDIA_DELETE_FILES_JOB = 'media.delete-files';

const variantsJob = idJob(MEDIA_VARIANTS_JOB, 'media', 'mediaId');
const deleteFilesJob = idJob(MEDIA_DELETE_FILES_JOB, 'media', 'mediaId');

export function registerMediaJobs(
  queue: JobQueue,
  deps: { db: Db; storage: MediaStorage; log: FastifyBaseLogger },
) {
  const { storage } = deps;
  const repo = mediaRepository(deps.db);

  /**
   * The variants not made during the upload. Then the uploaded source (which may carry EXIF/GPS)
   * is deleted. After the last failed attempt the media stays usable with what exists ('failed').
   */
  const variants = handle(variantsJob, async ({ mediaId }, job) => {
    const media = await repo.findForProcessing(mediaId);
    if (!media || media.kind !== 'image' || !media.source_key || !media.width) return;
    try {
      const made = await renderRemainingVariants(
        storage,
        { id: media.id, sourceKey: media.source_key, width: media.width },
        new Set(media.names),
      );
      try {
        await repo.finishProcessing(media.id, 'ready', made);
      } catch (err) {
        // Deleted while we worked: its file clean-up may already have run, so remove what we wrote.
        if ((err as { code?: string }).code === '23503') {
          await storage.deletePrefix(media.id);
          return;
        }
        throw err;
      }
      await storage.delete(media.source_key);
    } catch (err) {
      if (job.last) {
        await repo.finishProcessing(media.id, 'failed');
        await storage.delete(media.source_key);
      }
      throw err;
    }
  });

  const deleteFiles = handle(deleteFilesJob, async ({ mediaId }) => {
    await storage.deletePrefix(mediaId.toLowerCase());
  });
  registerJobs(queue, [variants, deleteFiles]);
}
