/**
 * Failures that say a resource is unavailable for now rather than that our code is wrong: the database
 * cannot be reached (refused, reset or ended connections, the server shutting down or starting up) and
 * the disk is full. The error handler answers them with 503 / 507 and `Retry-After` instead of 500.
 */

/** Node's socket errors for a connection that could not be made or broke. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for the same: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now, 53300 too_many_connections, and class 08 (connection exceptions).
 */
const sqlStates = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres' own messages for a connection that ended or could not be had in time. */
const driverMessages = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, errors, cause } = err as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (
    typeof code === 'string' &&
    (socketCodes.has(code) || sqlStates.has(code) || /^08[0-9A-Z]{3}$/.test(code))
  )
    return true;
  if (typeof message === 'string' && driverMessages.some((re) => re.test(message))) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}

/** The disk (or the user's quota on it) is full. */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * The media store (disk or S3 bucket) failed for another reason than a missing file: unreachable, refusing,
 * answering with an error. Wraps the store's own error so the handler can log it and answer 503.
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('media storage unavailable', { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** Seconds a client should wait before trying again after a 503 for an unreachable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const databaseUnavailableMessage =
  'De database is even niet bereikbaar. Probeer het over een paar seconden opnieuw.';
export const storageFullMessage =
  'Het bestand kon niet worden opgeslagen: de opslag is vol. Er is niets bewaard; probeer het later opnieuw.';
/** Seconds a client should wait before asking again for a file the media store could not give. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;
export const storageUnavailableMessage =
  'De opslag van foto’s en video’s is even niet bereikbaar. Probeer het over een tijdje opnieuw.';
