import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A file this process may run (a regular file with the execute bit for us). */
function runnable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The ffmpeg that reads uploaded videos and music and makes the presentation's MP4: the one FFMPEG_PATH
 * names, else Debian's (/usr/bin/ffmpeg), else the first `ffmpeg` on PATH; a maintained build, updated
 * with the system. Null when there is none that can be run (FFMPEG_PATH set to one that cannot: none
 * either): then video and music are switched off.
 */
export function findFfmpeg(
  configured: string | undefined,
  searchPath: string | undefined = process.env.PATH,
  debian = '/usr/bin/ffmpeg',
): string | null {
  if (configured) return runnable(configured) ? configured : null;
  const candidates = [
    debian,
    ...(searchPath ?? '')
      .split(path.delimiter)
      .filter((dir) => path.isAbsolute(dir))
      .map((dir) => path.join(dir, 'ffmpeg')),
  ];
  return candidates.find(runnable) ?? null;
}

const emailList = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email('ADMIN_EMAILS bevat een ongeldig e-mailadres')));

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

/** Listening on every interface, or on this machine only: a browser here reaches it as localhost. */
const isWildcardHost = (host: string) => ['', '0.0.0.0', '::', '[::]'].includes(host);
const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * PUBLIC_URL when it is not set: the host and port this process listens on, so a newcomer who changes only
 * PORT gets sign-in, mail links and photos on that port.
 */
export function defaultPublicUrl(host: string, port: number): string {
  const name = isWildcardHost(host) || isLoopbackHost(host) ? 'localhost' : host;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}

/** The whole environment, validated once at start (rule 5). Types are inferred from it. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    /** Unset: http://localhost:<PORT>, the address this process answers on (see defaultPublicUrl). */
    PUBLIC_URL: optionalUrl,
    APP_URL: optionalUrl,
    API_URL: optionalUrl,
    OIDC_AUTHORITY: optionalUrl,
    OIDC_AUDIENCE: z.string().default('aandenken-api'),
    DATABASE_URL: optionalUrl,
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default('Aandenken <noreply@aandenken.nl>'),
    ADMIN_EMAILS: emailList,
    /** Delivery attempts per mail before it is given up (kept and logged; retries back off to an hour). */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
    /**
     * Mails one address that has not proven itself may get per 24 hours, whoever causes them: invitations,
     * access-code mails and partner confirmations together; verification and reset mails apart.
     */
    MAIL_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
    WEB_DIST_DIR: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
    /** Wrong access codes per address per hour before 429 (20; end-to-end runs raise it). */
    ACCESS_CODE_FAILURES_PER_HOUR: z.coerce.number().int().positive().default(20),
    /** Wrong access codes from all addresses per hour; above it a code is checked only with a solved proof of work. */
    ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR: z.coerce.number().int().positive().default(1000),
    /** Proof-of-work difficulty: the largest number a challenge may hide (on average half of it is tried). */
    ACCESS_CODE_POW_MAX_NUMBER: z.coerce.number().int().min(10).max(10_000_000).default(100_000),
    /** Wrong codes per memorial in 15 minutes, by links that name the memorial, before it is locked. */
    ACCESS_CODE_MEMORIAL_FAILURES: z.coerce.number().int().positive().default(10),
    /** The owner is told once when this many wrong codes have named their memorial. */
    ACCESS_CODE_MEMORIAL_OWNER_ALERT: z.coerce.number().int().positive().default(100),
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(300),
    /**
     * Redis for the rate limits' counters, shared by every process (redis:// or rediss://); empty = each process
     * counts in its own memory.
     */
    REDIS_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .url()
        .refine((u) => /^rediss?:\/\//.test(u), 'REDIS_URL moet met redis:// of rediss:// beginnen')
        .optional(),
    ),
    /** What the counters' keys in Redis start with (several sites can share one Redis). */
    REDIS_KEY_PREFIX: z.string().min(1).default('aandenken:'),
    /** Time for a whole request to arrive, body included (408 after it): bounds a body sent byte by byte. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
    /** Time for a request's headers to arrive (408 after it). */
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
    /** Time for a body that is not an upload (JSON, a form) to arrive once the headers did (408 after it). */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    /** An upload (multipart) slower than this over a whole window is cut off (408); 0: no minimum. */
    UPLOAD_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(16_384),
    /** The window over which an upload's rate is measured; the first one is its grace period. */
    UPLOAD_RATE_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
    /** A connection on which nothing moves for this long is closed. */
    CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
    /** How long an idle keep-alive connection stays open between requests. */
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    /** ffmpeg for videos, music and the MP4 export; unset: /usr/bin/ffmpeg, else `ffmpeg` on PATH (see `findFfmpeg`). */
    FFMPEG_PATH: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /** The presentation's MP4 export (docs/keepsakes.md): ffmpeg is stopped after this many seconds. */
    PRESENTATION_VIDEO_TIMEOUT_S: z.coerce.number().int().min(10).default(1800),
    /** Encoder threads for the MP4 export (`-threads`). */
    PRESENTATION_VIDEO_THREADS: z.coerce.number().int().min(1).max(16).default(2),
    /** Address-space limit of the export's ffmpeg process, in MB (ulimit -v). */
    PRESENTATION_VIDEO_MEMORY_MB: z.coerce.number().int().min(256).default(2048),
    /** Background workers per lane of the job queue (docs/reliability.md); 0 leaves the lane to other processes. */
    JOBS_MEDIA_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    JOBS_RENDER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    JOBS_FILES_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    JOBS_MAIL_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    JOBS_SYSTEM_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
    /** Heavy work (video renders, exports, printed books) queued or running per memorial, per kind (429 above it). */
    HEAVY_JOBS_PER_MEMORIAL: z.coerce.number().int().positive().default(2),
    /** Heavy work queued or running per account, per kind (429 above it). */
    HEAVY_JOBS_PER_ACCOUNT: z.coerce.number().int().positive().default(3),
    /** Uploads one caller may have in flight at once (429 above it). */
    UPLOADS_PER_CALLER: z.coerce.number().int().positive().default(3),
    /** Live streams (guestbook, kaarsjesmoment) one user or guest token may hold open at once (429 above it). */
    LIVE_STREAMS_PER_CALLER: z.coerce.number().int().positive().default(4),
    /** Live streams one client address may hold open at once (429 above it); room for a household behind one address. */
    LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(16),
    /** Live streams this process holds open at most (503 above it), so the streams leave room for reads. */
    LIVE_STREAMS_MAX: z.coerce.number().int().positive().default(1000),
    /** Memory for the shared-read response cache (docs/performance.md); 0 switches it off. */
    RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    /** Shed load (503 OVERLOADED) while the event loop's mean delay over the last second is above this; 0 = off. */
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
    /** Shed load while the JavaScript heap in use is above this many MB; 0 = off; unset = 90 % of Node's heap limit. */
    OVERLOAD_MAX_HEAP_USED_MB: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().min(0).optional(),
    ),
    COOKIE_KEYS: z.string().optional(),
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    SEED_EXAMPLES: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    // Embedded identity provider (docs/identity.md).
    OIDC_ACCESS_TOKEN_TTL: z.coerce.number().int().min(10).max(86_400).default(300),
    OIDC_SESSION_TTL: z.coerce
      .number()
      .int()
      .min(60)
      .default(14 * 24 * 3600),
    LOGIN_FAILURE_FACTOR: z.coerce.number().int().min(1).default(5),
    LOGIN_WAIT_INCREMENT_SECONDS: z.coerce.number().int().min(1).default(60),
    LOGIN_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).default(900),
    LOGIN_FAILURE_RESET_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(12 * 3600),
    IDENTITY_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
    /** Days of a new memorial's free trial with Premium's features (docs/plans.md). */
    TRIAL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** Mollie's API key (test_… or live_…); empty = payments are switched off. */
    MOLLIE_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /** Mollie's API root; tests point it at a local stand-in (http only on loopback). */
    MOLLIE_API_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.url().default('https://api.mollie.com'),
    ),
    /**
     * Media in S3-compatible object storage (docs/scale-out.md): all five of endpoint, bucket, region and keys,
     * or none (media on the local disk).
     */
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    S3_REGION: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    S3_ACCESS_KEY_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /** The bucket in the path (MinIO and most S3-compatible services); `false` puts it in the host name. */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Our company on invoices (docs/plans.md). */
    INVOICE_SELLER_NAME: z.string().min(1).default('Aandenken B.V.'),
    INVOICE_SELLER_ADDRESS: z.string().min(1).default('Herengracht 1, 1015 BA Amsterdam'),
    INVOICE_SELLER_KVK: z.string().default('00000000'),
    INVOICE_SELLER_VAT_ID: z.string().default('NL000000000B01'),
    /** OpenAI-compatible chat endpoint for the AI biography draft (docs/keepsakes.md); unset = off. */
    LLM_BASE_URL: optionalUrl,
    LLM_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    LLM_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(200).optional()),
    /** Longest wait for the endpoint's answer, and then for each next piece of it. */
    LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_ISSUER: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.url().default('https://accounts.google.com'),
    ),
  })
  .refine((env) => env.HEADERS_TIMEOUT_MS <= env.REQUEST_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    message: 'HEADERS_TIMEOUT_MS mag niet groter zijn dan REQUEST_TIMEOUT_MS',
  })
  .refine(
    (env) =>
      env.MOLLIE_API_URL.startsWith('https://') ||
      /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(env.MOLLIE_API_URL),
    {
      path: ['MOLLIE_API_URL'],
      message: 'MOLLIE_API_URL moet https zijn (http alleen op 127.0.0.1 of localhost)',
    },
  )
  .refine(
    (env) => {
      const set = [
        env.S3_ENDPOINT,
        env.S3_BUCKET,
        env.S3_REGION,
        env.S3_ACCESS_KEY_ID,
        env.S3_SECRET_ACCESS_KEY,
      ];
      return set.every(Boolean) || !set.some(Boolean);
    },
    {
      path: ['S3_BUCKET'],
      message:
        'S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID en S3_SECRET_ACCESS_KEY horen samen: zet ze alle vijf, of geen',
    },
  )
  .transform((env) => {
    const publicUrl = (env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT)).replace(/\/+$/, '');
    const dataDir = path.resolve(env.DATA_DIR);
    const oidcAuthority = (env.OIDC_AUTHORITY ?? `${publicUrl}/realms/aandenken`).replace(/\/+$/, '');
    return {
      ...env,
      PUBLIC_URL: publicUrl,
      APP_URL: (env.APP_URL ?? publicUrl).replace(/\/+$/, ''),
      API_URL: (env.API_URL ?? publicUrl).replace(/\/+$/, ''),
      OIDC_AUTHORITY: oidcAuthority,
      /** True when this process is the identity provider (no external OIDC_AUTHORITY). */
      embeddedIdentity: oidcAuthority === `${publicUrl}/realms/aandenken`,
      DATA_DIR: dataDir,
      /** Google federation is on only when both credentials are set. */
      googleEnabled: !!(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
      /** Payments through Mollie are on only with an API key. */
      paymentsEnabled: !!env.MOLLIE_API_KEY,
      /** Media in an S3-compatible bucket, when configured (all five settings, checked above). */
      s3:
        env.S3_ENDPOINT && env.S3_BUCKET && env.S3_REGION && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? {
              endpoint: env.S3_ENDPOINT,
              bucket: env.S3_BUCKET,
              region: env.S3_REGION,
              accessKeyId: env.S3_ACCESS_KEY_ID,
              secretAccessKey: env.S3_SECRET_ACCESS_KEY,
              forcePathStyle: env.S3_FORCE_PATH_STYLE,
            }
          : undefined,
      /** The AI biography draft is on only when the endpoint, its key and the model are all set. */
      aiDraftEnabled: !!(env.LLM_BASE_URL && env.LLM_API_KEY && env.LLM_MODEL),
      /** The ffmpeg found (`findFfmpeg`); null: video and music uploads and the MP4 export are off. */
      ffmpegPath: findFfmpeg(env.FFMPEG_PATH),
    };
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses an environment; throws a ConfigError listing every problem in readable lines. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Ongeldige configuratie:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * A line for the start-up log when PUBLIC_URL points elsewhere than where this process listens: sign-in,
 * links in mails and photos are built from PUBLIC_URL. Behind a proxy that is as it should be (info); on
 * this machine's own address it is a mistake (warn). Null when they agree.
 */
export function publicUrlNotice(config: Config): { level: 'info' | 'warn'; line: string } | null {
  const url = new URL(config.PUBLIC_URL);
  const publicPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const publicHost = url.hostname;
  const host = config.HOST;
  const isName = (h: string) => !isLoopbackHost(h) && !/^[\d.]+$/.test(h) && !h.includes(':');
  const reachable = isWildcardHost(host)
    ? true
    : isLoopbackHost(host)
      ? isLoopbackHost(publicHost)
      : publicHost === host || publicHost === `[${host}]` || isName(publicHost);
  if (publicPort === config.PORT && reachable) return null;
  const listening = isWildcardHost(host) ? `poort ${config.PORT}` : `${host}, poort ${config.PORT}`;
  if (isLoopbackHost(publicHost))
    return {
      level: 'warn',
      line:
        `PUBLIC_URL is ${config.PUBLIC_URL}, maar de server luistert op ${listening}: inloggen, links in mails ` +
        `en foto's gaan naar een adres waar hij niet te bereiken is. Laat PUBLIC_URL weg (dan is het ` +
        `${defaultPublicUrl(host, config.PORT)}) of zet het op het adres waarop bezoekers de site openen.`,
    };
  return {
    level: 'info',
    line:
      `PUBLIC_URL is ${config.PUBLIC_URL}; de server luistert op ${listening}. Dat klopt als een proxy ` +
      `${url.host} hierheen doorstuurt; zo niet, dan werken inloggen, links in mails en foto's niet.`,
  };
}

/**
 * The optional services that are switched off, each in a plain Dutch line for the start-up log: without them
 * the product runs, and says what it does instead.
 */
export function switchedOff(config: Config): string[] {
  const off: string[] = [];
  if (!config.DATABASE_URL)
    off.push('PostgreSQL-server: geen DATABASE_URL, de ingebouwde database (PGlite) wordt gebruikt');
  if (!config.SMTP_URL)
    off.push('e-mail: geen SMTP_URL, mails worden als .eml-bestand bewaard in DATA_DIR/outbox');
  if (!config.paymentsEnabled)
    off.push(
      'betalen: geen MOLLIE_API_KEY, betalingen staan uit (het team kan een pakket met de hand zetten)',
    );
  if (!config.googleEnabled) off.push('inloggen met Google: geen GOOGLE_CLIENT_ID en GOOGLE_CLIENT_SECRET');
  if (!config.s3) off.push('objectopslag: geen S3_BUCKET, media staan op de eigen schijf (DATA_DIR/media)');
  if (!config.aiDraftEnabled)
    off.push('AI-concept voor het levensverhaal: geen LLM_BASE_URL, LLM_API_KEY en LLM_MODEL, het staat uit');
  if (!config.REDIS_URL) off.push('Redis: geen REDIS_URL, elk proces telt de limieten alleen');
  if (!config.ffmpegPath)
    off.push(
      `video en muziek: geen ffmpeg (${config.FFMPEG_PATH ? `FFMPEG_PATH ${config.FFMPEG_PATH} is niet uit te voeren` : 'niet in /usr/bin of op PATH; installeer Debian’s pakket ffmpeg'}), video’s en muziek uploaden en de presentatie als MP4 staan uit`,
    );
  return off;
}
