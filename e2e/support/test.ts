import { test as base, expect, type Page } from '@playwright/test';
import { serverPorts } from '../playwright.config.ts';

export interface BrowserErrors {
  /** Allows console errors matching `pattern` in this test (one it causes on purpose). */
  allow(pattern: RegExp): void;
}

/**
 * The browser's own lines for requests that did not succeed: an answer of 4xx (tests of refusals cause them)
 * or a request the test cut off itself (`route.abort`, `setOffline`). A 5xx answer is never among them.
 */
const browserNetworkLines = [
  /^Failed to load resource: the server responded with a status of 4\d\d/,
  /^Failed to load resource: net::ERR_(FAILED|ABORTED|INTERNET_DISCONNECTED)/,
];

/**
 * Every spec's `test`: fails a test when a page of its browser (or of a context it opens itself) throws an
 * uncaught error or logs a `console.error` that the test did not allow with `browserErrors.allow(/…/)`.
 */
export const test = base.extend<{ browserErrors: BrowserErrors }>({
  // The worker's own server (playwright.config.ts): pages, `request` and contexts a test opens itself.
  // Playwright reads the fixtures a fixture uses from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(`http://localhost:${serverPorts(testInfo.parallelIndex).port}`),
  browserErrors: [
    async ({ browser, context }, use, testInfo) => {
      const errors: string[] = [];
      const allowed = [...browserNetworkLines];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error')
            errors.push(`console.error: ${message.text()} (${message.location().url})`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const opened = await newContext.apply(browser, args);
        opened.on('page', watch);
        return opened;
      };
      try {
        await use({ allow: (pattern) => void allowed.push(pattern) });
      } finally {
        browser.newContext = newContext;
      }
      // A test that already failed keeps its own error; this one would only hide it.
      if (testInfo.status === testInfo.expectedStatus) {
        const unexpected = errors.filter(
          (e) => !allowed.some((re) => re.test(e.replace(/^(console\.error|uncaught): /, ''))),
        );
        expect(unexpected, 'no uncaught error and no unexpected console.error in the browser').toEqual([]);
      }
    },
    { auto: true },
  ],
});

/**
 * Resolves once the page has painted twice more: what a scroll or a click set in motion has been handled
 * (scroll events and the frame after), without a fixed wait.
 */
export const afterPaint = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

export { expect };
export type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
