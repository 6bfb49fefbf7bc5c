import { createHash } from 'node:crypto';
import type { Db } from './client.ts';

/**
 * A PL/pgSQL function made from a statement the application builds (so the SQL keeps one source: the
 * TypeScript that also documents it). Its name carries a digest of its definition: a process running other
 * code gets a function of its own instead of replacing one that another process is using, and installing an
 * existing definition again is a no-op.
 */
export interface Routine {
  /** e.g. `memory_wall_page_3f2a…`; what callers put in their SQL. */
  readonly name: string;
  /** The argument types, as in `to_regprocedure`, e.g. `text, uuid, integer`. */
  readonly args: string;
  /** The CREATE FUNCTION statement. */
  readonly create: string;
}

/**
 * A read statement as a set-returning function whose plan is made once per connection: PostgreSQL keeps
 * the plans of a PL/pgSQL function's statements for the session, and `plan_cache_mode` set on the function
 * makes that one generic plan instead of a new plan for each call's values. For statements that are cheap
 * to run but dear to plan, written so that a generic plan is as good (see `keysetBefore`).
 * `$1`…`$n` in `statement` are the arguments; `returns` lists its columns as `name type, …`.
 */
export function plannedOnce(
  prefix: string,
  o: { args: string; returns: string; statement: string },
): Routine {
  const body = `#variable_conflict use_column
BEGIN
  RETURN QUERY ${o.statement};
END`;
  const definition = `(${o.args}) RETURNS TABLE (${o.returns}) LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan
  AS $routine$
${body}
$routine$`;
  const name = `${prefix}_${createHash('sha256').update(definition).digest('hex').slice(0, 12)}`;
  return { name, args: o.args, create: `CREATE FUNCTION ${name}${definition}` };
}

/**
 * Creates the routines that do not exist yet in the current schema. One process at a time (an advisory
 * lock): two servers starting together on one database would otherwise both try to create them.
 */
export async function installRoutines(db: Db, routines: readonly Routine[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('aandenken:routines'))", []);
    for (const r of routines) {
      const { rows } = await tx.query<{ found: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS found', [
        `${r.name}(${r.args})`,
      ]);
      if (!rows[0]!.found) await tx.exec(r.create);
    }
  });
}
