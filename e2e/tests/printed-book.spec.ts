import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';

// The printed book (Premium; a new page is in its trial, which has it): from the manage screen
// to a rendered A5 PDF with a warning for a photo too small for 300 dpi, a preview, a download and a mail.

async function expectNoSeriousViolations(page: Page, what: string) {
  // The preview is the browser's own PDF viewer, not our markup.
  const result = await axeResults(page, { exclude: 'iframe' });
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
}

test('an owner makes the printed book: warnings, preview, download and a mail', async ({
  page,
  browserErrors,
}) => {
  test.setTimeout(240_000);
  const lastName = `Boek ${Date.now().toString(36)}`;
  const { id, owner } = await createMemorialAsNewOwner(page, 'Willem', lastName);
  const api = await CoreApi.as(page);
  const photo = await api.uploadPhoto(id, 'haven.jpg', 200, 'In de haven');
  await api.update(id, {
    status: 'active',
    visibility: 'private',
    birthDate: '1938-05-02',
    deathDate: '2024-01-12',
    coverMediaId: photo,
  });
  await api.addMemory(id, { yearLabel: 'Zomer 1975', text: 'Hij floot altijd bij het vissen.' });

  await openManageTab(page, id, 'Levensverhaal');
  await page.getByRole('link', { name: 'Gedrukt boek' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/boek`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Willem ${lastName}`);
  const make = page.getByRole('button', { name: 'Maak het boek' });
  await expect(make).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await expect(make).toBeVisible();
    await expectNoSeriousViolations(page, `boek, nog niet gemaakt (${theme})`);
  }

  await page.getByRole('checkbox', { name: /Snijtekens/ }).check();
  await make.click();
  const download = page.getByRole('link', { name: /Download het boek \(pdf/ });
  await expect(download).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/pagina’s in A5 en snijtekens\./)).toBeVisible();

  // The cover photo (900 × 600) is too small for 300 dpi across the cover: one warning.
  await expect(page.getByRole('heading', { name: '1 foto is te klein voor 300 dpi' })).toBeVisible();
  await expect(page.getByText(/^Omslag: deze foto is \d+ × \d+ pixels/)).toBeVisible();

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await expect(download).toBeVisible();
    await expectNoSeriousViolations(page, `boek, klaar (${theme})`);
  }

  // The preview: the PDF itself, inline, loaded when asked for. The suite's init script also runs in the
  // frame of the browser's PDF viewer, which has no storage.
  browserErrors.allow(/Cannot read properties of null \(reading 'getItem'\)/);
  const show = page.getByRole('button', { name: 'Voorbeeld tonen' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await show.click();
  await expect(page.getByRole('button', { name: 'Voorbeeld verbergen' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  const preview = page.getByTitle('Voorbeeld van het boek');
  await expect(preview).toBeAttached();
  const src = (await preview.getAttribute('src'))!;
  expect(src).toMatch(/\/core\/printed-book\/[0-9a-f-]{36}\/file\?exp=\d+&sig=[\w-]+#page=1/);
  const pdf = await page.request.get(src.split('#')[0]!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toMatch(/^inline;/);
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.toString('latin1')).toContain('/TrimBox');

  const downloading = page.waitForEvent('download');
  await download.click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^boek-willem-boek-[a-z0-9]+\.pdf$/);

  const mail = await waitForMail(
    (m) => m.to.some((t) => t.toLowerCase() === owner.email.toLowerCase()) && m.subject.includes(lastName),
  );
  expect(mail.subject).toBe(`Het boek over Willem ${lastName} staat klaar`);
  expect(mail.text).toContain(`/memorial/${id}/boek`);
});
