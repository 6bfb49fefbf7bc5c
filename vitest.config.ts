import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
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
