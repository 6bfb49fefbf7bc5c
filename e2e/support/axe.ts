import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe's results for `page` against WCAG 2.2 AA (`bestPractice` adds axe's best practices), taken once nothing on
 * the page is moving: contrast is judged on what a visitor sees, not on a toast or dialog halfway through its
 * fade-in (which made the suite fail at random on a busy machine). Endless animations (a spinner, a candle's
 * flame) do not count as moving.
 */
export async function axeResults(
  page: Page,
  options: { bestPractice?: boolean; exclude?: string; include?: string } = {},
) {
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          document
            .getAnimations()
            .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
        ),
      { message: 'the page stops moving before it is checked' },
    )
    .toBe(true);
  let builder = new AxeBuilder({ page }).withTags(options.bestPractice ? [...wcag, 'best-practice'] : wcag);
  if (options.include) builder = builder.include(options.include);
  if (options.exclude) builder = builder.exclude(options.exclude);
  return builder.analyze();
}
