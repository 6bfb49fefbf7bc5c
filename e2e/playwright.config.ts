import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8090);
export const mailboxPort = Number(process.env.E2E_MAIL_PORT ?? 8091);
/** The stand-in chat endpoint (support/serve.ts) the AI biography draft talks to. */
export const llmPort = Number(process.env.E2E_LLM_PORT ?? port + 2);

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
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? '../.test-output/playwright.json' }],
  ],
  use: {
    baseURL: `http://localhost:${port}`,
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
  webServer: {
    command: 'node support/serve.ts',
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(port), E2E_MAIL_PORT: String(mailboxPort), E2E_LLM_PORT: String(llmPort) },
  },
});
