import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { expect, test } from '../support/test.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';

// The promise of permanence: an owner exports the whole page, gets the link by mail, and the
// zip's index.html opens from disk, without the service, showing the page and its memories.

test('an owner exports the memorial; the mailed zip opens offline from disk', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const firstName = 'Anna';
  const lastName = `Bewaard ${Date.now().toString(36)}`;
  const { id, owner } = await createMemorialAsNewOwner(page, firstName, lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility: 'private' });
  await api.uploadPhoto(id, 'strand.jpg', 200, 'Op het strand');
  await api.addMemory(id, { yearLabel: '1980', text: 'Zondagen aan zee <script>alert(1)</script>' });
  expect(await api.lightCandle(id)).toBe(201);

  await openManageTab(page, id, 'Bewaren');
  await page.getByRole('button', { name: 'Export aanvragen' }).click();

  const mail = await waitForMail(
    (m) => m.to.some((t) => t.toLowerCase() === owner.email.toLowerCase()) && m.subject.includes(lastName),
  );
  const link = /https?:\/\/\S+\/core\/export\/[0-9a-f-]{36}\/download\?exp=\d+&sig=[\w-]+/.exec(
    mail.text,
  )?.[0];
  expect(link, mail.text).toBeTruthy();

  // The manage screen shows the download once it is ready (it polls while the zip is being prepared).
  const button = page.getByRole('link', { name: /Download het zip-bestand/ });
  await expect(button).toBeVisible({ timeout: 20_000 });
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^aandenken-anna-bewaard-.*\.zip$/);
  const zip = await fs.readFile((await download.path())!);

  // The mailed link serves the same file without signing in.
  const anonymous = await page.request.fetch(link!, { headers: { authorization: '' } });
  expect(anonymous.status()).toBe(200);
  expect((await anonymous.body()).equals(zip)).toBe(true);

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-export-'));
  try {
    for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(zip)))) {
      await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await fs.writeFile(path.join(dir, name), bytes);
    }
    // Offline: no network at all for this browser context, the page from file://.
    const context = await browser.newContext({ offline: true });
    const copy = await context.newPage();
    const requests: string[] = [];
    copy.on('request', (r) => requests.push(r.url()));
    await copy.goto(pathToFileURL(path.join(dir, 'index.html')).href);
    await expect(copy.getByRole('heading', { level: 1, name: `${firstName} ${lastName}` })).toBeVisible();
    await expect(copy.getByText('Zondagen aan zee <script>alert(1)</script>')).toBeVisible();
    await expect(copy.getByText('1 kaarsje aangestoken')).toBeVisible();
    const photo = copy.getByRole('img', { name: 'Op het strand' });
    await expect(photo).toBeVisible();
    expect(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    await context.close();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
