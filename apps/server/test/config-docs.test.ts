import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../src/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Variables the server does not read: the web app's build-time settings. */
const buildTime = ['VITE_OIDC_AUTHORITY', 'VITE_APP_URL'];
const schemaVariables = Object.keys(configSchema.in.shape).sort();

/** `NAME=value`, and `# NAME=value` for a variable best left unset. */
function envExample() {
  const set = new Map<string, string>();
  const mentioned = new Set<string>();
  for (const line of read('.env.example').split('\n')) {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (!match) continue;
    mentioned.add(match[2]!);
    if (!match[1]) set.set(match[2]!, match[3]!);
  }
  return { set, mentioned };
}

/** The variables named in the first column of the README's configuration table. */
function readmeTable(): Set<string> {
  const readme = read('README.md');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const [, name] of line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name!);
  }
  return names;
}

describe('configuration docs', () => {
  it('the schema is the one read (sanity: the parser sees its variables)', () => {
    expect(schemaVariables).toEqual(expect.arrayContaining(['PORT', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL']));
  });

  it('.env.example lists every variable of the schema, and nothing else', () => {
    const { mentioned } = envExample();
    expect(schemaVariables.filter((v) => !mentioned.has(v))).toEqual([]);
    expect([...mentioned].filter((v) => !schemaVariables.includes(v) && !buildTime.includes(v))).toEqual([]);
    for (const v of buildTime) expect(mentioned).toContain(v);
  });

  it("the README's configuration table lists every variable of the schema, and nothing else", () => {
    const table = readmeTable();
    expect(schemaVariables.filter((v) => !table.has(v))).toEqual([]);
    expect([...table].filter((v) => !schemaVariables.includes(v) && !buildTime.includes(v))).toEqual([]);
    for (const v of buildTime) expect(table).toContain(v);
  });

  it('the values in .env.example are valid and safe: copied as they are, the server starts', () => {
    const { set } = envExample();
    const config = loadConfig(Object.fromEntries(set));
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.embeddedIdentity).toBe(true);
    expect(config.googleEnabled).toBe(false);
  });
});
