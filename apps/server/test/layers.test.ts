import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers (docs/architecture.md): a feature's SQL lives in its repository (`repository.ts`,
 * `<part>-repository.ts`); its service, routes and helpers call named functions there.
 */
const modulesDir = path.resolve(import.meta.dirname, '../src/modules');

/**
 * Files that may still hold SQL, and why. Keep it short: move the statement into the feature's repository
 * instead of adding a line here.
 */
const allowed: Record<string, string> = {
  // Pings the database for the health check; it reads no table.
  'health/routes.ts': 'no table',
};

const isRepository = (file: string) => /(^|-)repository\.ts$/.test(path.basename(file));

/** Comments may name statements; only code counts. A `//` inside a string (a URL) follows no space. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;])\/\/.*$/gm, '$1');

/** A query on a database client, or an SQL statement in a string. */
const sqlPatterns = [
  /\b(?:db|tx|q|client|deps\.db)\.query\s*[<(]/,
  /['"`]\s*(?:WITH\s+\w+\s+AS\s*\(\s*)?(?:SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/,
];

/** `file:line text` for each line of a non-repository file under modules/ that holds SQL. */
export function sqlOutsideRepositories(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !isRepository(entry.name)) {
        const rel = path.relative(modulesDir, full).split(path.sep).join('/');
        if (rel in allowed) continue;
        code(fs.readFileSync(full, 'utf8'))
          .split('\n')
          .forEach((line, i) => {
            if (sqlPatterns.some((p) => p.test(line))) found.push(`${rel}:${i + 1} ${line.trim()}`);
          });
      }
    }
  };
  walk(modulesDir);
  return found;
}

describe('layers', () => {
  it('keeps every SQL statement of a feature in its repository', () => {
    expect(sqlOutsideRepositories()).toEqual([]);
  });

  it('finds a statement in a service (the check itself)', () => {
    const line = "const { rows } = await db.query('SELECT 1 FROM memorials WHERE id = $1', [id]);";
    expect(sqlPatterns.some((p) => p.test(code(line)))).toBe(true);
    expect(sqlPatterns.some((p) => p.test(code(`// ${line}`)))).toBe(false);
    expect(sqlPatterns.some((p) => p.test('service.query(await req.caller(), req.body)'))).toBe(false);
  });
});
