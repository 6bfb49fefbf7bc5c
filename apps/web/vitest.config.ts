import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // One jsdom and one module graph for every file instead of one each: most of this project's time was
    // setting up the environment again per file. Globals stubbed by a test are restored after it.
    isolate: false,
    unstubGlobals: true,
  },
});
