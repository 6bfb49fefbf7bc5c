import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';

/** A real JPEG (decoded and re-encoded by the server), drawn with sharp so the repository holds no binary fixture. */
export async function jpegFixture(
  name: string,
  hue: number,
): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
    <rect width="900" height="600" fill="hsl(${hue} 45% 55%)"/>
    <circle cx="${200 + (hue % 500)}" cy="260" r="110" fill="hsl(${(hue + 40) % 360} 70% 85%)"/>
    <rect y="420" width="900" height="180" fill="hsl(${(hue + 120) % 360} 30% 35%)"/></svg>`;
  return {
    name,
    mimeType: 'image/jpeg',
    buffer: await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer(),
  };
}

// Tests that are not about signing up start from an owner registered over HTTP (support/owner.ts).
export { createMemorialAsNewOwner } from './owner.ts';

/** Opens a tab of /memorial/{id}/beheer by its name, as a person would. */
export async function openManageTab(page: Page, id: string, tab: string) {
  if (!page.url().includes(`/memorial/${id}/beheer`)) await page.goto(`/memorial/${id}/beheer`);
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
}

/** The 8-digit access code as the privacy tab shows it ('1234 5678'). */
export async function readAccessCode(page: Page, id: string): Promise<string> {
  await openManageTab(page, id, 'Privacy en toegang');
  const text = await page.getByTestId('access-code').innerText();
  const code = text.replace(/\s/g, '');
  expect(code).toMatch(/^\d{8}$/);
  return code;
}

/** Answers a confirmation dialog. */
export async function confirm(page: Page, button: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}
