import { describe, expect, it } from 'vitest';
import { apiPaths, apiPrefix } from './index.ts';

const entries = Object.entries(apiPaths);

describe('apiPaths', () => {
  it('builds concrete paths from the patterns, one encoded value per parameter', () => {
    expect(apiPaths.contact()).toBe('/contact');
    expect(apiPaths.memorial('0d5c')).toBe('/memorial/0d5c');
    expect(apiPaths.memorial.pattern).toBe('/memorial/:id');
    expect(apiPaths.accessCodeMail('m1')).toBe('/memorial/m1/access-code/mail');
    expect(apiPaths.mediaBytes('a', 'w640.webp')).toBe('/media/a/w640.webp');
    expect(apiPaths.inviteByCode('a/b c')).toBe('/guest-invite/invite-code/a%2Fb%20c');
    // The compiler asks one value per parameter (checked by `tsc -b`, never run).
    const _typed = () => [
      // @ts-expect-error the memorial's id is missing
      apiPaths.memorial(),
      // @ts-expect-error the contact form's path has no parameter
      apiPaths.contact('x'),
    ];
  });

  it('holds each pattern once, each starting with a slash and without the prefix', () => {
    const patterns = entries.map(([, p]) => p.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const pattern of patterns) {
      expect(pattern).toMatch(/^\/[a-z0-9:/._-]*$/i);
      expect(pattern.startsWith(`${apiPrefix}/`)).toBe(false);
    }
  });

  it('turns every pattern back into itself when built from its own parameter names', () => {
    for (const [name, p] of entries) {
      const names = (p.pattern.match(/:[A-Za-z0-9_]+/g) ?? []).map((m) => m.slice(1));
      const build = p as unknown as (...values: string[]) => string;
      expect(build(...names), name).toBe(p.pattern.replace(/:/g, ''));
    }
  });
});
