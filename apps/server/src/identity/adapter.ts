import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../db/client.ts';

interface ModelRow {
  payload: AdapterPayload;
  consumed_at: Date | string | null;
  [key: string]: unknown;
}

const epoch = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/**
 * Stores every oidc-provider model in the `oidc_models` table through our database layer, so the
 * provider works the same on PGlite and on a PostgreSQL server and survives restarts. Rows past their
 * expiry are treated as absent (and swept by `sweepExpiredModels`).
 */
export function createAdapterFactory(db: Queryable): new (model: string) => Adapter {
  async function findWhere(model: string, column: 'id' | 'uid' | 'user_code', value: string) {
    const { rows } = await db.query<ModelRow>(
      `SELECT payload, consumed_at FROM oidc_models
       WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())
       LIMIT 1`,
      [model, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: epoch(row.consumed_at) } : row.payload;
  }

  return class PostgresAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await db.query(
        `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int > 0 THEN now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [
          this.model,
          id,
          JSON.stringify(payload),
          payload.grantId ?? null,
          payload.uid ?? null,
          payload.userCode ?? null,
          expiresIn > 0 ? Math.ceil(expiresIn) : 0,
        ],
      );
    }

    find(id: string) {
      return findWhere(this.model, 'id', id);
    }

    findByUid(uid: string) {
      return findWhere(this.model, 'uid', uid);
    }

    findByUserCode(userCode: string) {
      return findWhere(this.model, 'user_code', userCode);
    }

    /**
     * Single use, atomically: the provider checks `consumed` before it consumes, so two simultaneous uses of
     * one code or refresh token could both pass that check. The one that loses here is treated as reuse:
     * the grant and everything issued under it is revoked.
     */
    async consume(id: string): Promise<void> {
      const { rowCount } = await db.query(
        'UPDATE oidc_models SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
        [this.model, id],
      );
      if (rowCount === 1) return;
      const { rows } = await db.query<{ grant_id: string | null }>(
        'SELECT grant_id FROM oidc_models WHERE model = $1 AND id = $2',
        [this.model, id],
      );
      const grantId = rows[0]?.grant_id;
      if (grantId) await revokeGrant(db, grantId);
      throw new errors.InvalidGrant(`${this.model} already used`);
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }
  };
}

/** Revokes a grant: the grant and every code and token issued under it. */
export async function revokeGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query("DELETE FROM oidc_models WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)", [grantId]);
}

/** Deletes rows that have expired; returns how many. */
export async function sweepExpiredModels(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM oidc_models WHERE expires_at <= now()');
  return rowCount;
}
