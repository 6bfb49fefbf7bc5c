/**
 * The printed book (Premium; docs/keepsakes.md 'Printed book'): the background job renders an
 * A5 PDF; the PDF is read back here with poppler's tools (pages, boxes, embedded fonts, text, images and the
 * resolution they are printed at), and the Premium check refuses it on a Basis page.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biographyBlocks } from '../src/modules/printed-book/service.ts';
import {
  A5,
  galleryPhotoSize,
  hyphenate,
  memoryPhotoSize,
  MM,
  renderBook,
  type BookContent,
} from '../src/modules/printed-book/pdf.ts';
import { tributesSentence } from '../src/modules/printed-book/wording.ts';
import { form, jpeg } from './fixtures/content.ts';
import { joined, LATIN_EXTENDED_NAMES, parsePdf, pdfText, type Parsed } from './fixtures/pdf-reader.ts';
import { candle } from './fixtures/content-matrix.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  auth,
  createMemorial,
  createUsers,
  createWorld,
  guestTokenFor,
  type Users,
  type World,
} from './memorial-fixtures.ts';

let t: TestContext;
let users: Users;
let w: World;
let smallPhotoId: string;
let coverId: string;
let landscapeId: string;
let portraitId: string;
/** The pixel width a gallery photo of `w`×`h` is printed with at 300 dpi. */
const galleryPx = (w: number, h: number) => Math.round((galleryPhotoSize(w, h).width / 72) * 300);
const CAPTION = 'Op het strand bij Scheveningen, zomer 1975';
const url = () => `/core/memorial/${w.memorialId}/printed-book`;
const MEMORY_TEXT = 'Elke zomer fietsten we samen langs de Noordzeekust naar Scheveningen.';
const HIDDEN_TEXT = 'Deze verborgen herinnering hoort niet in het boek.';
const BIOGRAPHY_SENTENCE = 'Hij groeide op in een onderwijzersgezin aan de rand van Dordrecht.';

async function upload(field: 'memorialId' | 'memoryId', id: string, data: Buffer, token: string) {
  const body = await form({ [field]: id }, { data, type: 'image/jpeg', name: 'foto.jpg' });
  const res = await t.app.inject({
    method: 'POST',
    url: field === 'memorialId' ? '/core/memorial-media' : '/core/memory/medias',
    payload: body.payload,
    headers: { ...body.headers, ...auth(token) },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

async function publishedMemory(token: string, text: string) {
  const m = await t.app.inject({
    method: 'POST',
    url: '/core/memories/concept',
    headers: auth(token),
    payload: { memorialId: w.memorialId, yearLabel: '1975', text, membersOnly: false },
  });
  expect(m.statusCode).toBe(201);
  const id = m.json().id as string;
  const p = await t.app.inject({
    method: 'POST',
    url: '/core/memories/publish',
    headers: auth(token),
    payload: { id },
  });
  expect(p.statusCode).toBe(200);
  return id;
}

async function requestAndRender(token: string, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({ method: 'POST', url: url(), headers: auth(token), payload: body });
  expect(res.statusCode).toBe(202);
  expect(res.json().status).toBe('queued');
  await t.app.deps.queue.idle();
  const state = await t.app.inject({ method: 'GET', url: url(), headers: auth(token) });
  expect(state.statusCode).toBe(200);
  expect(state.json()).toMatchObject({ status: 'ready', progress: 100, available: true });
  return state.json() as {
    pageCount: number;
    sizeBytes: number;
    previewUrl: string;
    downloadUrl: string;
    warnings: { mediaId: string; dpi: number; message: string }[];
  };
}
const pathOf = (u: string) => u.replace(t.config.API_URL, '');

beforeAll(async () => {
  t = await createTestApp();
  users = await createUsers(t);
  const o = await createMemorial(t, users.otherOwner, { status: 'active' });
  w = await createWorld(t, users, { memorialId: o.id, guestToken: await guestTokenFor(t, o.id) });
  coverId = await upload('memorialId', w.memorialId, await jpeg(2048, 2048), users.owner.token);
  // The rest of the gallery, in its order after the cover: a landscape photo with a caption, a portrait one.
  landscapeId = await upload('memorialId', w.memorialId, await jpeg(2000, 1500), users.owner.token);
  const captioned = await t.app.inject({
    method: 'PUT',
    url: `/core/memorial-media/${landscapeId}`,
    headers: auth(users.owner.token),
    payload: { caption: CAPTION },
  });
  expect(captioned.statusCode).toBe(200);
  portraitId = await upload('memorialId', w.memorialId, await jpeg(1200, 1600), users.owner.token);
  const memoryId = await publishedMemory(users.contributor.token, MEMORY_TEXT);
  await upload('memoryId', memoryId, await jpeg(2400, 1600), users.contributor.token);
  smallPhotoId = await upload('memoryId', memoryId, await jpeg(64, 48), users.contributor.token);
  // A memory hidden after a report (a takedown) stays out of the book.
  const hidden = await publishedMemory(users.contributor.token, HIDDEN_TEXT);
  await t.db.query(`UPDATE memories SET hidden_at = now(), hidden_by = 'owner' WHERE id = $1`, [hidden]);
  await candle(t, w);
  // The funeral's guestbook: its shown entries go in the book (names and messages, never addresses).
  await t.db.query(
    `INSERT INTO memorial_guestbooks (memorial_id, token) VALUES ($1, 'boek-register-token-12')`,
    [w.memorialId],
  );
  await t.db.query(
    `INSERT INTO guestbook_entries (memorial_id, name, address, message, hidden) VALUES
       ($1, 'Tante Jet', 'Kerkstraat 1, Dordrecht', 'We denken aan jullie.', false),
       ($1, 'Verborgen Gast', null, 'Dit hoort niet in het register van het boek.', true),
       ($1, $2, null, 'Rust zacht 🕊️ lieve opa ❤️', false)`,
    [w.memorialId, LATIN_EXTENDED_NAMES],
  );
  const paragraphs = Array.from(
    { length: 14 },
    (_, i) =>
      `<h2>Periode ${i + 1}</h2><p>${BIOGRAPHY_SENTENCE} ${'Zijn verhalen over de zeevaart en de verenigingsactiviteiten waren onvergetelijk. '.repeat(5)}</p>`,
  ).join('');
  await t.db.query(
    `UPDATE memorials SET biography_html = $2, quote = 'Wat je liefhebt, blijft', cover_media_id = $3,
            birth_date = '1941-05-03', death_date = '2024-02-11', birth_place = 'Dordrecht' WHERE id = $1`,
    [w.memorialId, paragraphs, coverId],
  );
  await t.app.deps.queue.idle(); // photo variants done
}, 120_000);
afterAll(() => t?.close());

describe('printed book on a Premium (trial) page', () => {
  let state: Awaited<ReturnType<typeof requestAndRender>>;
  let pdf: Parsed;
  let bytes: Uint8Array;
  let name: string;

  beforeAll(async () => {
    state = await requestAndRender(users.editor.token);
    const res = await t.app.inject({ method: 'GET', url: pathOf(state.previewUrl) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="boek-.*\.pdf"$/);
    expect(res.rawPayload.length).toBe(state.sizeBytes);
    bytes = new Uint8Array(res.rawPayload);
    pdf = await parsePdf(bytes);
    const { rows } = await t.db.query<{ n: string }>(
      `SELECT first_name || ' ' || last_name AS n FROM memorials WHERE id = $1`,
      [w.memorialId],
    );
    name = rows[0]!.n;
  }, 120_000);

  it('is A5 on every page, with the page count the state reports, a multiple of 4', () => {
    expect(pdf.pages.length).toBe(state.pageCount);
    expect(pdf.pages.length).toBeGreaterThanOrEqual(4);
    expect(pdf.pages.length % 4).toBe(0);
    for (const p of pdf.pages) {
      expect(p.size[0]).toBeCloseTo(A5.width, 1);
      expect(p.size[1]).toBeCloseTo(A5.height, 1);
      expect(p.size[0]).toBeCloseTo(419.53, 1);
      expect(p.trim).toEqual([0, 0, expect.closeTo(A5.width, 2), expect.closeTo(A5.height, 2)]);
    }
  });

  it('embeds its fonts (Literata subsets)', () => {
    expect(pdf.fonts.length).toBeGreaterThanOrEqual(2);
    for (const f of pdf.fonts) {
      expect(f.name).toMatch(/^[A-Z]{6}\+Literata/);
      expect(f.embedded).toBe(true);
    }
  });

  it('holds the cover, biography, memories with their authors, the guestbook and the candles', () => {
    const cover = pdf.pages[0]!.lines.join(' ');
    expect(cover).toContain(name);
    expect(cover).toContain('1941 – 2024');
    expect(cover).toContain('Wat je liefhebt, blijft');
    const text = joined(pdf);
    expect(text).toContain('Levensverhaal');
    expect(text).toContain('Geboren 3 mei 1941 in Dordrecht');
    expect(text).toContain(BIOGRAPHY_SENTENCE);
    expect(text).toContain('Herinneringen');
    expect(text).toContain(MEMORY_TEXT);
    expect(text).not.toContain('hoort niet in het boek');
    expect(text).toMatch(/1975 — door bijdrager/i);
    expect(text).toContain('Condoleanceregister');
    expect(text).toContain('Tante Jet');
    expect(text).toContain('We denken aan jullie.');
    expect(text).not.toContain('Kerkstraat');
    expect(text).not.toContain('Verborgen Gast');
    // One candle and no flowers: nothing said about flowers.
    expect(text).toContain('Op de gedenkpagina werd 1 kaarsje aangestoken. Dit boek werd gemaakt');
    // Page numbers from page 2 on.
    expect(pdf.pages[1]!.lines).toContain('2');
  });

  it('prints names in Turkish, Polish and Vietnamese as written, and leaves emoji out', () => {
    const text = pdfText(bytes);
    expect(text).toMatch(new RegExp(`^${LATIN_EXTENDED_NAMES}$`, 'm'));
    // Left out, not drawn as boxes (which the extractor would give as a break or a wide gap).
    expect(text).toMatch(/^Rust zacht lieve opa$/m);
    expect(text).not.toMatch(/[?\uFFFD]/);
  });

  it('hyphenates Dutch text and keeps headings with what follows', () => {
    expect(hyphenate('Herinneringen aan de verenigingsactiviteiten')).toBe(
      'Her\u00ADin\u00ADne\u00ADrin\u00ADgen aan de ver\u00ADe\u00ADni\u00ADgings\u00ADac\u00ADti\u00ADvi\u00ADtei\u00ADten',
    );
    const lines = pdf.pages.flatMap((p) => p.lines);
    // Some line ends in a hyphen the hyphenation made; no soft hyphen is ever drawn.
    expect(lines.some((l) => /\p{L}-$/u.test(l))).toBe(true);
    expect(lines.join('')).not.toContain('\u00AD');
    // A heading is never the last text on its page (before the page number).
    for (const p of pdf.pages.slice(1)) {
      const body = p.lines.filter((l) => !/^\d+$/.test(l));
      if (body.length) expect(body.at(-1)).not.toMatch(/^Periode \d+$/);
    }
  });

  it('has the gallery after the biography: its photos in order with their captions, the cover not twice', () => {
    expect(pdf.pages[0]!.images).toHaveLength(1);
    const start = pdf.pages.findIndex((p) => p.lines[0] === 'Foto’s');
    expect(start).toBeGreaterThan(0);
    const photosPages = pdf.pages.slice(
      start,
      pdf.pages.findIndex((p) => p.lines[0] === 'Herinneringen'),
    );
    expect(photosPages.flatMap((p) => p.images.map((i) => i.widthPx))).toEqual([
      galleryPx(2000, 1500),
      galleryPx(1200, 1600),
    ]);
    expect(photosPages.flatMap((p) => p.lines).join(' ')).toContain(CAPTION);
    expect(photosPages).toHaveLength(1); // two to a page
  });

  it('places photos at 300 dpi where the original allows, and warns for the one that does not', () => {
    const images = pdf.pages.flatMap((p) => p.images);
    expect(images.length).toBe(5);
    const sharp = images.filter((i) => i.dpi >= 299);
    expect(sharp.length).toBe(4);
    for (const i of sharp) expect(i.dpi).toBeLessThan(301); // scaled down to exactly 300 dpi
    const small = images.find((i) => i.dpi < 299)!;
    expect(small.widthPx).toBe(64);
    expect(state.warnings).toHaveLength(1);
    expect(state.warnings[0]).toMatchObject({ mediaId: smallPhotoId });
    // pdfimages gives whole dots per inch; the warning rounds the placed resolution down.
    const placed = (64 / memoryPhotoSize(64, 48).width) * 72;
    expect(small.dpi).toBe(Math.round(placed));
    expect(state.warnings[0]!.dpi).toBe(Math.floor(placed));
    expect(state.warnings[0]!.message).toMatch(/64 × 48 pixels .* dpi/);
  });

  it('mails the one who asked a link to the book page', async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(users.editor.email) && m.subject.includes('staat klaar'),
    );
    expect(mail.text).toContain(`/memorial/${w.memorialId}/boek`);
    expect(mail.text).toContain(`${state.pageCount} pagina’s`);
  });

  it('downloads as an attachment; a bad link is refused, the contributor and strangers too', async () => {
    const res = await t.app.inject({ method: 'GET', url: pathOf(state.downloadUrl) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    const tampered = pathOf(state.downloadUrl).replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(43));
    const bad = await t.app.inject({ method: 'GET', url: tampered });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().code).toBe('BOOK_LINK_INVALID');
    const byContributor = await t.app.inject({
      method: 'GET',
      url: pathOf(state.downloadUrl),
      headers: auth(users.contributor.token),
    });
    expect(byContributor.statusCode).toBe(403);
    for (const [token, status] of [
      [null, 401],
      [users.contributor.token, 403],
      [users.stranger.token, 404],
    ] as const) {
      const get = await t.app.inject({ method: 'GET', url: url(), headers: auth(token) });
      expect(get.statusCode).toBe(status);
      const post = await t.app.inject({ method: 'POST', url: url(), headers: auth(token), payload: {} });
      expect(post.statusCode).toBe(status);
      expect(post.json().message).toMatch(/[a-z]/);
    }
  });

  it('with bleed and crop marks: a larger sheet whose trim box is A5', async () => {
    const again = await requestAndRender(users.owner.token, { bleed: true, cropMarks: true });
    const res = await t.app.inject({ method: 'GET', url: pathOf(again.previewUrl) });
    const withBleed = await parsePdf(new Uint8Array(res.rawPayload));
    const offset = 12 * MM; // 3 mm bleed + 9 mm for the marks
    for (const p of withBleed.pages) {
      expect(p.size[0]).toBeCloseTo(A5.width + 2 * offset, 1);
      expect(p.trim[2]! - p.trim[0]!).toBeCloseTo(A5.width, 1);
      expect(p.trim[3]! - p.trim[1]!).toBeCloseTo(A5.height, 1);
      expect(p.trim[0]).toBeCloseTo(offset, 1);
    }
    // The cover photo runs into the bleed, still at 300 dpi.
    expect(withBleed.pages[0]!.images[0]!.dpi).toBeCloseTo(300, 0);
    // The older book's link no longer works: one book per memorial.
    const old = await t.app.inject({ method: 'GET', url: pathOf(state.previewUrl) });
    expect(old.statusCode).toBe(404);
  });
});

describe('the cover without a photo picked', () => {
  const renderPdf = async () => {
    const state = await requestAndRender(users.owner.token);
    const res = await t.app.inject({ method: 'GET', url: pathOf(state.previewUrl) });
    const pdf = await parsePdf(new Uint8Array(res.rawPayload));
    return { pdf, galleryWidths: pdf.pages.slice(1).flatMap((p) => p.images.map((i) => i.widthPx)) };
  };

  it('is the photo the memorial page shows: the first of the gallery in its order', async () => {
    await t.db.query('UPDATE memorials SET cover_media_id = NULL WHERE id = $1', [w.memorialId]);
    const first = await renderPdf();
    expect(first.pdf.pages[0]!.images).toHaveLength(1);
    expect(first.pdf.pages[0]!.images[0]!.dpi).toBeCloseTo(300, 0);
    // The first photo is on the cover and not again among the gallery's (nor the memory photos').
    expect(first.galleryWidths).toContain(galleryPx(2000, 1500));
    expect(first.galleryWidths).not.toContain(galleryPx(2048, 2048));

    // The family moves the portrait photo to the front of the gallery: the cover follows.
    const reorder = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial-media/reorder',
      headers: auth(users.owner.token),
      payload: { memorialId: w.memorialId, orderedIds: [portraitId, coverId, landscapeId] },
    });
    expect(reorder.statusCode).toBe(200);
    const second = await renderPdf();
    expect(second.pdf.pages[0]!.images).toHaveLength(1);
    expect(second.galleryWidths).toContain(galleryPx(2048, 2048));
    expect(second.galleryWidths).not.toContain(galleryPx(1200, 1600));
    expect(second.pdf.pages.length % 4).toBe(0);
  });
});

describe('printed book on a Basis page', () => {
  beforeAll(async () => {
    await t.db.query(
      `UPDATE memorial_plans SET plan = 'basis', paid_until = now() + interval '1 year' WHERE memorial_id = $1`,
      [w.memorialId],
    );
  });

  it('is refused with a Dutch 403 PLAN_FEATURE, the state says it is not available, links stop working', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM printed_books');
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: auth(users.owner.token),
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_FEATURE' });
    expect(res.json().message).toMatch(/^Het gedrukte boek hoort bij Premium/);
    const after = await t.db.query('SELECT count(*)::int AS n FROM printed_books');
    expect(after.rows).toEqual(before.rows);
    const state = await t.app.inject({ method: 'GET', url: url(), headers: auth(users.owner.token) });
    expect(state.statusCode).toBe(200);
    expect(state.json()).toMatchObject({ available: false, previewUrl: null, downloadUrl: null });
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id::text FROM printed_books WHERE memorial_id = $1',
      [w.memorialId],
    );
    // A link handed out while the page was Premium stops working too.
    await t.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [
      w.memorialId,
    ]);
    const link = (await t.app.inject({ method: 'GET', url: url(), headers: auth(users.owner.token) })).json()
      .previewUrl as string;
    expect(link).toContain(rows[0]!.id);
    await t.db.query(
      `UPDATE memorial_plans SET plan = 'basis', paid_until = now() + interval '1 year' WHERE memorial_id = $1`,
      [w.memorialId],
    );
    const file = await t.app.inject({ method: 'GET', url: pathOf(link) });
    expect(file.statusCode).toBe(403);
    expect(file.json().code).toBe('PLAN_FEATURE');
  });

  it('rejects a malformed request body without a 5xx', async () => {
    await t.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [
      w.memorialId,
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: auth(users.owner.token),
      payload: { bleed: 'ja' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Afloop/);
  });
});

describe('book builder', () => {
  it('turns the biography into blocks and renders a book without photos or memories', async () => {
    expect(
      biographyBlocks(
        '<h2>Jeugd</h2><p>Zon &amp; zee<br>en <strong>wind</strong></p><ul><li>Zeilen</li></ul><script>x</script>',
      ),
    ).toEqual([
      { kind: 'heading', text: 'Jeugd' },
      { kind: 'paragraph', text: 'Zon & zee\nen wind' },
      { kind: 'item', text: 'Zeilen' },
    ]);
    const content: BookContent = {
      name: 'Anna de Vries',
      years: '',
      lifeLines: [],
      quote: null,
      cover: null,
      biography: [],
      gallery: [],
      memories: [],
      guestbook: [],
      candleCount: 0,
      flowerCount: 2,
      madeOn: '1 januari 2026',
    };
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    });
    const { pageCount } = await renderBook(content, { bleed: false, cropMarks: false }, out);
    const parsed = await parsePdf(new Uint8Array(Buffer.concat(chunks)));
    // Two written pages, filled up with blank ones (no page number) to the 4 a printer binds.
    expect(pageCount).toBe(4);
    expect(parsed.pages).toHaveLength(4);
    expect(parsed.pages[1]!.lines).toContain('2');
    expect(parsed.pages[2]!.lines).toEqual([]);
    expect(parsed.pages[3]!.lines).toEqual([]);
    expect(joined(parsed)).toContain('Op de gedenkpagina werden 2 bloemen gelegd.');
    expect(joined(parsed)).not.toContain('kaarsje');
  });

  it('words the candles and flowers in correct Dutch, leaving out what there is none of', () => {
    expect(tributesSentence(0, 0)).toBe(
      'Op de gedenkpagina zijn nog geen kaarsjes aangestoken of bloemen gelegd.',
    );
    expect(tributesSentence(1, 0)).toBe('Op de gedenkpagina werd 1 kaarsje aangestoken.');
    expect(tributesSentence(12, 0)).toBe('Op de gedenkpagina werden 12 kaarsjes aangestoken.');
    expect(tributesSentence(0, 1)).toBe('Op de gedenkpagina werd 1 bloem gelegd.');
    expect(tributesSentence(12, 3)).toBe(
      'Op de gedenkpagina werden 12 kaarsjes aangestoken en 3 bloemen gelegd.',
    );
    expect(tributesSentence(1, 1)).toBe('Op de gedenkpagina werd 1 kaarsje aangestoken en 1 bloem gelegd.');
    expect(tributesSentence(1, 3)).toBe(
      'Op de gedenkpagina werd 1 kaarsje aangestoken en werden 3 bloemen gelegd.',
    );
    expect(tributesSentence(2, 1)).toBe(
      'Op de gedenkpagina werden 2 kaarsjes aangestoken en werd 1 bloem gelegd.',
    );
    expect(tributesSentence(1250, 0)).toBe('Op de gedenkpagina werden 1.250 kaarsjes aangestoken.');
  });
});
