import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The server suites that start processes or databases of their own (a server, a first start, a backup, the
 * SMTP outbox's child): together about half the server project's time (docs/performance.md, "Tests").
 * They run first, longest first, so that no worker is left with one of them at the end while the other core idles (without
 * a cache of earlier runs, as on CI, Vitest would start the largest files first, and these are small);
 * `npm test -- quick` leaves them out.
 */
export const slowSuites = [
  'embedded-first-start',
  'graceful-shutdown',
  'operations',
  'mail-outbox',
  'backup-restore',
  'migrate',
  'foundation',
  'authz-matrix',
  'load-shedding',
  'job-lanes',
  'two-process',
  'live-access',
  'fuzz',
  'disk-full',
  'upload-limits',
  'ffmpeg-off',
].map((name) => `test/${name}.test.ts`);
const slowRank = (spec: TestSpecification) =>
  slowSuites.findIndex((suffix) => spec.moduleId.endsWith(`/apps/server/${suffix}`));

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rest = await super.sort(files.filter((f) => slowRank(f) < 0));
    const slow = files.filter((f) => slowRank(f) >= 0).sort((a, b) => slowRank(a) - slowRank(b));
    return [...slow, ...rest];
  }
}
/** `npm test -- quick` (scripts/test.mjs): the edit loop's subset. */
const quick = process.env.TEST_QUICK === '1';

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: quick ? ['**/node_modules/**', ...slowSuites] : undefined,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // The workers keep their module graph from file to file (each file still builds its own app and
          // database): importing the server anew per file was a third of this project's time.
          isolate: false,
          // On CI a failed test is tried once more, as Playwright's are; one that passes only then is
          // named in the summary of scripts/test.mjs ("Geslaagd na een nieuwe poging") to be looked into.
          retry: process.env.CI ? 1 : 0,
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // Pure functions: one module graph for all files.
          isolate: false,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
