import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { createMailOutbox, type MailOutbox } from './mail-outbox.ts';
import { mediaStorageFor } from './media/storage-for.ts';
import type { MediaStorage } from './media/storage.ts';
import { mediaUrlSigner, type MediaUrlSigner } from './media/url-signer.ts';
import { createResponseCache, type ResponseCache } from './response-cache.ts';
import { liveStreams, type LiveStreams } from './live-streams.ts';
import { loadSigningKeys, type SigningKeys } from './signing-keys.ts';

export interface Clock {
  now(): Date;
}

/**
 * The application's shared infrastructure, built once by the composition (app.ts) and passed in explicitly
 * (rule 4); each module takes the part it uses (`Pick<Deps, …>`).
 */
export interface Deps {
  config: Config;
  db: Db;
  mailer: Mailer;
  /** Mail is written in the transaction of the change that causes it and sent by a background job. */
  outbox: MailOutbox;
  /** Background jobs in PostgreSQL; the composition starts and stops its worker. */
  queue: JobQueue;
  storage: MediaStorage;
  signer: MediaUrlSigner;
  /** Shared reads of public memorials (docs/performance.md); every database change invalidates it. */
  responseCache: ResponseCache;
  /** The process's live streams: their caps, and their end when the caller's access ends. */
  liveStreams: LiveStreams;
  clock: Clock;
  /** The embedded provider's keys; undefined when an external provider (OIDC_AUTHORITY) is used. */
  signingKeys?: SigningKeys;
}

export const systemClock: Clock = { now: () => new Date() };

export async function createDeps(o: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  mailer?: Mailer;
  /** Headers every response carries, also those the response cache answers itself. */
  headers: Record<string, string>;
}): Promise<Deps> {
  const { config, db, log } = o;
  const mailer =
    o.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.DATA_DIR, 'outbox'),
      log,
    });
  const signingKeys = config.embeddedIdentity ? await loadSigningKeys(db) : undefined;
  const responseCache = await createResponseCache({
    db,
    log,
    maxBytes: config.RESPONSE_CACHE_MB * 1024 * 1024,
    headers: o.headers,
  });
  return {
    config,
    db,
    mailer,
    outbox: createMailOutbox({
      db,
      mailer,
      log: log.child({ module: 'mail' }),
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      perRecipientPerDay: config.MAIL_PER_RECIPIENT_PER_DAY,
    }),
    queue: createJobQueue({
      db,
      log: log.child({ module: 'jobs' }),
      concurrency: {
        media: config.JOBS_MEDIA_CONCURRENCY,
        render: config.JOBS_RENDER_CONCURRENCY,
        files: config.JOBS_FILES_CONCURRENCY,
        mail: config.JOBS_MAIL_CONCURRENCY,
        system: config.JOBS_SYSTEM_CONCURRENCY,
      },
    }),
    storage: mediaStorageFor(config),
    signer: mediaUrlSigner({ db, apiUrl: config.API_URL }),
    responseCache,
    liveStreams: liveStreams({ db, log: log.child({ module: 'live' }), limits: config }),
    clock: systemClock,
    signingKeys,
  };
}
