import { expect, test } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';

/** Every public screen, in both themes: the theme applied, the heading there, and no serious accessibility faults. */
const screens = [
  { path: '/', name: 'landing' },
  { path: '/prijzen', name: 'pricing' },
  { path: '/bedrijf', name: 'partner' },
  { path: '/contact', name: 'contact' },
  { path: '/privacy', name: 'privacy statement' },
  { path: '/voorwaarden', name: 'general terms' },
  { path: '/beslotenpagina', name: 'private page entry' },
  { path: '/example', name: 'examples gallery' },
  { path: '/create-memorial', name: 'create memorial' },
  { path: '/bestaat-niet', name: 'not found' },
];

for (const theme of ['dark', 'light'] as const) {
  test.describe(`${theme} theme`, { tag: '@layout' }, () => {
    test.beforeEach(async ({ context }) => {
      await context.addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    });

    for (const screen of screens) {
      test(`${screen.name} (${screen.path}) is accessible`, async ({ page }) => {
        await page.goto(screen.path);
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // Images and web fonts settle first, so contrast is measured on what a visitor sees.
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready);

        const { violations } = await axeResults(page, { bestPractice: true });
        const serious = violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({
            rule: v.id,
            help: v.help,
            nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
          }));
        expect(serious).toEqual([]);
      });
    }
  });
}
