import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '@aandenken/contract';
import type { Db, Queryable } from '../db/client.ts';
import type { Caller } from './auth.ts';
import { AppError } from './errors.ts';
import type { JobQueue } from './jobs/job-queue.ts';

/**
 * Idempotency keys for writes (docs/decisions/012-idempotency-keys.md). A write under /core (POST, PUT,
 * PATCH, DELETE) sent with an `Idempotency-Key` header claims (caller, key) before its handler runs; its
 * answer (status and body) is stored and given again to a repeat of the same request, with the header
 * `Idempotent-Replayed: true`. The same key with another request: 422. A repeat while the first is still
 * running: 409. A 5xx answer is not kept (the repeat runs again), unless the route stored its answer in
 * the write's own transaction (`req.idempotency.record`), which then stands: the change did commit.
 */

export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim still `running` after this long belongs to a request that died with its process. */
export const IDEMPOTENCY_ABANDONED_AFTER_MS = 5 * 60_000;
export const IDEMPOTENCY_CLEANUP_JOB = 'idempotency.cleanup';
const CLEANUP_EVERY_MS = 3_600_000;
const keyPattern = /^[\x21-\x7e]{8,200}$/;
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Reads sent as POST (a body of filters): nothing to repeat safely, nothing stored. */
const queryPath = /\/query(?:[-/?]|$)/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route handles `Idempotency-Key` itself (the memorial concept), or is a read sent as POST. */
    idempotency?: 'own' | 'none';
  }
  interface FastifyRequest {
    /** Set when this write claimed an idempotency key. */
    idempotency?: IdempotencyClaim;
  }
}

export interface IdempotencyClaim {
  caller: string;
  key: string;
  /** Stores the answer inside the write's transaction: a repeat gets it even if this answer is lost. */
  record(tx: Queryable, status: number, body: unknown): Promise<void>;
}

type KeyRow = {
  request_hash: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  abandoned: boolean;
};

export const callerScope = (caller: Caller) =>
  caller.kind === 'user'
    ? `user:${caller.userId}`
    : caller.kind === 'guest'
      ? `guest:${caller.tokenId}`
      : 'anonymous';

/** What makes two requests "the same": method, address and (for JSON) the body; a file upload's bytes are not read. */
function requestHash(req: FastifyRequest) {
  const h = createHash('sha256').update(req.method).update('\0').update(req.url).update('\0');
  const multipart = String(req.headers['content-type'] ?? '').startsWith('multipart/');
  if (req.body !== undefined && !multipart) h.update(JSON.stringify(req.body));
  return h.digest('hex');
}

const reused = () =>
  new AppError(
    422,
    errorCodes.idempotencyKeyReused,
    'Deze Idempotency-Key is al gebruikt voor een ander verzoek. Gebruik een nieuwe sleutel.',
  );
const inProgress = () =>
  new AppError(
    409,
    errorCodes.idempotencyInProgress,
    'Dit verzoek wordt nog verwerkt. Wacht even en probeer het dan opnieuw.',
  );

export function registerIdempotency(app: FastifyInstance, { db, queue }: { db: Db; queue: JobQueue }) {
  queue.every(IDEMPOTENCY_CLEANUP_JOB, 'system', CLEANUP_EVERY_MS, async () => {
    const removed = await deleteExpiredIdempotencyKeys(db);
    if (removed > 0) app.log.info({ removed }, 'expired idempotency keys removed');
  });

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined || !writeMethods.has(req.method) || !req.url.startsWith('/core/')) return;
    if (req.routeOptions.config.idempotency || queryPath.test(req.url)) return;
    if (typeof header !== 'string' || !keyPattern.test(header)) {
      throw new AppError(
        400,
        errorCodes.validation,
        'De Idempotency-Key is ongeldig: gebruik 8 tot 200 gewone tekens (bijvoorbeeld een UUID).',
      );
    }
    const caller = callerScope(await req.caller());
    const hash = requestHash(req);
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await db.query(
        `INSERT INTO idempotency_keys (caller, key, request_hash, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(hours => $4))
         ON CONFLICT (caller, key) DO NOTHING`,
        [caller, header, hash, IDEMPOTENCY_TTL_HOURS],
      );
      if (claimed.rowCount === 1) {
        req.idempotency = {
          caller,
          key: header,
          record: async (tx, status, body) => {
            await tx.query(
              `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_type = $4, response_body = $5
                WHERE caller = $1 AND key = $2 AND status = 'running'`,
              [caller, header, status, 'application/json; charset=utf-8', JSON.stringify(body)],
            );
          },
        };
        return;
      }
      const { rows } = await db.query<KeyRow>(
        `SELECT request_hash, status, response_status, response_type, response_body,
                (expires_at < now() OR (status = 'running' AND created_at < now() - make_interval(secs => $3))) AS abandoned
           FROM idempotency_keys WHERE caller = $1 AND key = $2`,
        [caller, header, IDEMPOTENCY_ABANDONED_AFTER_MS / 1000],
      );
      const row = rows[0];
      if (!row) continue; // deleted in between: claim again
      if (row.abandoned) {
        await db.query(`DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2 AND request_hash = $3`, [
          caller,
          header,
          row.request_hash,
        ]);
        continue;
      }
      if (row.request_hash !== hash) throw reused();
      if (row.status === 'running') throw inProgress();
      reply.header('idempotent-replayed', 'true');
      if (row.response_type) reply.type(row.response_type);
      // The stored text as it is: no route serializer runs over it again.
      return reply
        .status(row.response_status!)
        .serializer((text: unknown) => text as string)
        .send(row.response_body ?? '');
    }
    throw inProgress();
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    const kept =
      reply.statusCode < 500 && (typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null);
    try {
      if (kept) {
        await db.query(
          `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_type = $4, response_body = $5
            WHERE caller = $1 AND key = $2 AND status = 'running'`,
          [
            claim.caller,
            claim.key,
            reply.statusCode,
            String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
            payload == null ? '' : payload.toString(),
          ],
        );
      } else {
        // Not answered: the repeat runs again (an answer stored in the write's transaction stays).
        await db.query(`DELETE FROM idempotency_keys WHERE caller = $1 AND key = $2 AND status = 'running'`, [
          claim.caller,
          claim.key,
        ]);
      }
    } catch (err) {
      // The answer still goes out; a repeat finds the claim `running` (409) until it is abandoned.
      req.log.warn({ err }, 'idempotency: the answer could not be stored');
    }
    return payload;
  });
}

export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM idempotency_keys WHERE expires_at < now()`);
  return rowCount;
}
