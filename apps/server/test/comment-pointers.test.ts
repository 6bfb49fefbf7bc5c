import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments say why themselves: none points at a text a reader of the repository cannot open (the product
 * spec's sections, the tracker's issues). Pointers into docs/ are fine; those files are in the repository.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const scanned = ['apps', 'packages', 'e2e', 'scripts', 'bench'];
const skippedDirs = new Set([
  'node_modules',
  'dist',
  'test-results',
  'playwright-report',
  '.test-output',
  'coverage',
]);
const sourceFile = /\.(?:[cm]?[jt]sx?|css|html|sql|sh)$/;
/** Applied migrations are kept byte for byte (their checksum is checked at start-up), comments and all. */
const frozen = /^apps\/server\/src\/db\/migrations\//;
const self = 'apps/server/test/comment-pointers.test.ts';

const pointers = [
  /\bspec\s*§/i,
  // A section sign with a number, except in a citation of an RFC ('RFC 5545 §3.1').
  /(?<!RFC \d+ )§\s?\d/,
  /\bissues? #?\d+/i,
];

export const pointsOutside = (line: string) => pointers.some((p) => p.test(line));

/** `file:line text` for each line under the scanned folders that points outside the repository. */
export function outsidePointers(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        // Dot folders are local copies and tool state, not the repository's sources.
        if (!skippedDirs.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if (sourceFile.test(entry.name) && !frozen.test(rel) && rel !== self) {
        fs.readFileSync(full, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (pointsOutside(line)) found.push(`${rel}:${i + 1} ${line.trim()}`);
          });
      }
    }
  };
  for (const dir of scanned) walk(path.join(root, dir));
  return found;
}

describe('comment pointers', () => {
  it('has no "spec §" or "issue N" pointer in a source file', () => {
    expect(outsidePointers()).toEqual([]);
  });

  it('finds such pointers and lets the rest through (the check itself)', () => {
    for (const line of [
      '// The header (spec §2 Layout).',
      '/** Texts from §9. */',
      '-- Issue 16, items 4 and 5: future messages',
      '// Load shedding (issue 21).',
      '// Fixed in issues 13 and 14.',
    ])
      expect(pointsOutside(line), line).toBe(true);
    for (const line of [
      '/** Folded at 75 octets (RFC 5545 §3.1). */',
      '// The guestbook (docs/funeral-day.md, "Het condoleanceregister").',
      'const issues = await repo.openIssues(2);',
      '// The spectrum of colours, § as a sign alone.',
    ])
      expect(pointsOutside(line), line).toBe(false);
  });
});
