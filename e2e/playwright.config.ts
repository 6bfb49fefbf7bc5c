import { defineConfig, devices } from '@playwright/test';

/**
 * The suite runs on this many servers at once (CI: 2), one Playwright worker each: every server its own
 * port, data folder, database, SMTP sink with its mailbox, and stand-ins (support/serve.ts), so no test sees
 * another worker's mail, rate-limit counters or access-code budget. Spec files are shared out between the
 * workers; the tests of one file run in order on one server.
 */
export const servers = Math.max(1, Number(process.env.E2E_WORKERS ?? (process.env.CI ? 2 : 1)));
const firstPort = Number(process.env.E2E_PORT ?? 8090);
const firstMailboxPort = Number(process.env.E2E_MAIL_PORT ?? firstPort + 1);
/** The stand-in chat endpoint (support/serve.ts) the AI biography draft talks to. */
const firstLlmPort = Number(process.env.E2E_LLM_PORT ?? firstPort + 2);

/** The ports of server `index` (0 for the first): each next server 10 ports further on. */
export function serverPorts(index: number) {
  return {
    port: firstPort + 10 * index,
    mailbox: firstMailboxPort + 10 * index,
    llm: firstLlmPort + 10 * index,
  };
}

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/**
 * End-to-end tests in Debian's Chromium against the real built server on a fresh data folder.
 * Tags: `@layout` tests run on the phone as well as the desktop (what depends on the screen: the header and
 * its menu, the landing page's carousels, the wall's columns, accessibility in both themes); `@database` tests
 * run once more against the PostgreSQL server in CI (`npm test -- database`), beside the server suites.
 * Every spec imports `test` from support/test.ts, which fails a test on a page error or console.error.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: servers,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? '../.test-output/playwright.json' }],
  ],
  use: {
    // Each worker's own server: support/test.ts sets baseURL to it.
    baseURL: `http://localhost:${firstPort}`,
    locale: 'nl-NL',
    timezoneId: 'Europe/Amsterdam',
    trace: 'on-first-retry',
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
    { name: 'phone', grep: /@layout/, use: { ...devices['Pixel 7'], launchOptions: chromium } },
  ],
  webServer: Array.from({ length: servers }, (_, index) => {
    const { port, mailbox, llm } = serverPorts(index);
    return {
      command: 'node support/serve.ts',
      url: `http://localhost:${port}/healthz`,
      reuseExistingServer: false,
      // A first start on PGlite makes the database and the example memorials before it listens.
      timeout: 240_000,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
      env: { E2E_PORT: String(port), E2E_MAIL_PORT: String(mailbox), E2E_LLM_PORT: String(llm) },
    };
  }),
});
