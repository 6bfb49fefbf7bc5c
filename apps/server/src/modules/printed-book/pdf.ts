import { createRequire } from 'node:module';
import { createPdf, MM, type PdfDoc } from '../../lib/pdf/document.ts';
import { tributesSentence } from './wording.ts';

/**
 * The printed book's layout (docs/keepsakes.md 'Printed book'): an A5 PDF from lib/pdf in its serif (Literata,
 * embedded as a subset), Dutch hyphenation by soft hyphens, headings never left alone at the foot of a page.
 * The book is a list of sections (`bookSections`); a new part is one more entry there.
 */
const require = createRequire(import.meta.url);
type Hyphenator = (text: string, o?: { hyphenChar?: string; minWordLength?: number }) => string;
// The Dutch patterns are loaded with the first book, not with the server.
let hyphenator: Hyphenator | undefined;
const hyphenateSync: Hyphenator = (text, o) =>
  (hyphenator ??= (require('hyphen/nl') as { hyphenateSync: Hyphenator }).hyphenateSync)(text, o);

export { MM };
/** A5 portrait in points. */
export const A5 = { width: 148 * MM, height: 210 * MM } as const;
export const BLEED = 3 * MM;
/** Room outside the bleed for the crop marks. */
const SLUG = 9 * MM;
const MARGIN = { top: 20 * MM, bottom: 22 * MM, side: 18 * MM };
export const CONTENT_WIDTH = A5.width - 2 * MARGIN.side;
/** The cover photo's box: the top of the page, into the bleed when there is one. */
export const coverBox = (bleed: boolean) => ({
  width: A5.width + (bleed ? 2 * BLEED : 0),
  height: 118 * MM + (bleed ? BLEED : 0),
});
/** A memory's photo: the text width, at most 85 mm high. */
export const MEMORY_PHOTO_MAX_HEIGHT = 85 * MM;

/** A gallery photo: the text width, at most 64 mm high, so that two with their captions share a page. */
export const GALLERY_PHOTO_MAX_HEIGHT = 64 * MM;

/** The printed size (points) of a memory photo of `w`×`h` pixels. */
export function memoryPhotoSize(w: number, h: number) {
  const scale = Math.min(CONTENT_WIDTH / w, MEMORY_PHOTO_MAX_HEIGHT / h);
  return { width: w * scale, height: h * scale };
}

/** The printed size (points) of a gallery photo of `w`×`h` pixels. */
export function galleryPhotoSize(w: number, h: number) {
  const scale = Math.min(CONTENT_WIDTH / w, GALLERY_PHOTO_MAX_HEIGHT / h);
  return { width: w * scale, height: h * scale };
}

/** Printers bind sheets folded in four pages: the book is filled up with blank pages to a multiple of 4. */
export const PAGES_PER_SIGNATURE = 4;

const SHY = '\u00AD';
/** Dutch hyphenation: soft hyphens in words of letters only (no addresses, numbers or links). */
export function hyphenate(text: string) {
  return text.replace(
    /(^|[\s(“‘"'])(\p{L}{7,})(?=[\s.,;:!?)”’"']|$)/gu,
    (_, pre: string, word: string) => pre + hyphenateSync(word, { minWordLength: 7 }),
  );
}

export interface BookPhoto {
  mediaId: string;
  /** Prepared for print: JPEG at the placed size, 300 dpi where the original allows. */
  jpeg: Buffer;
  /** The printed size in points. */
  size: { width: number; height: number };
}
export type BioBlock = { kind: 'heading' | 'paragraph' | 'item' | 'quote'; text: string };
export interface BookContent {
  name: string;
  /** '1941 – 2024', or empty. */
  years: string;
  /** 'Geboren 3 mei 1941 in Delft', 'Overleden …'. */
  lifeLines: string[];
  quote: string | null;
  cover: BookPhoto | null;
  biography: BioBlock[];
  /** The gallery's photos in its order (the cover's photo is on the cover), each with its caption. */
  gallery: { photo: BookPhoto; caption: string | null }[];
  memories: { yearLabel: string; text: string; author: string | null; photos: BookPhoto[] }[];
  /** The guestbook's shown entries (names and messages; never the addresses left for a thank-you card). */
  guestbook: { name: string; message: string | null }[];
  candleCount: number;
  flowerCount: number;
  madeOn: string;
}
export interface BookOptions {
  bleed: boolean;
  cropMarks: boolean;
}

type Doc = PdfDoc;
export interface BookContext {
  doc: Doc;
  content: BookContent;
  options: BookOptions;
  /** Where the trim box starts on the sheet (bleed and slug). */
  offset: number;
  /** Starts a section on a new page with its heading. */
  sectionStart(title: string): void;
  /** A heading kept with at least the first lines of what follows. */
  heading(text: string, next: string, size?: number): void;
  paragraph(text: string, o?: { italic?: boolean; indent?: number; gapAfter?: number }): void;
  /** A photo centred at its printed size, kept on one page with its caption (when it has one). */
  photo(p: BookPhoto, caption?: string | null): void;
}
export interface BookSection {
  id: string;
  /** Whether the book has this part (e.g. no biography written: no section). */
  present(content: BookContent): boolean;
  render(ctx: BookContext): void;
}

const INK = '#1f1a17';
const MUTED = '#5c534d';
const BODY = { size: 10.5, lineGap: 3.2 };

function coverSection(): BookSection {
  return {
    id: 'cover',
    present: () => true,
    render({ doc, content, options, offset }) {
      const o = offset;
      doc.addPage();
      let y = o + 70 * MM;
      if (content.cover) {
        const box = coverBox(options.bleed);
        doc.image(content.cover.jpeg, o - (options.bleed ? BLEED : 0), o - (options.bleed ? BLEED : 0), {
          width: box.width,
          height: box.height,
        });
        y = o + 118 * MM + 12 * MM;
      }
      const w = A5.width - 2 * MARGIN.side;
      doc.font('bold').fontSize(22).fillColor(INK);
      doc.text(content.name, o + MARGIN.side, y, { width: w, align: 'center' });
      if (content.years) {
        doc.moveDown(0.3).font('regular').fontSize(13).fillColor(MUTED);
        doc.text(content.years, { width: w, align: 'center' });
      }
      if (content.quote) {
        doc.moveDown(1.2).font('italic').fontSize(11).fillColor(INK);
        doc.text(`“${content.quote}”`, { width: w, align: 'center' });
      }
    },
  };
}

function biographySection(): BookSection {
  return {
    id: 'biography',
    present: (c) => c.biography.length > 0,
    render(ctx) {
      ctx.sectionStart('Levensverhaal');
      const lines = ctx.content.lifeLines;
      if (lines.length) ctx.paragraph(lines.join('\n'), { italic: true, gapAfter: 10 });
      const blocks = ctx.content.biography;
      blocks.forEach((b, i) => {
        if (b.kind === 'heading') ctx.heading(b.text, blocks[i + 1]?.text ?? '', 13);
        else if (b.kind === 'item') ctx.paragraph(`•  ${b.text}`, { indent: 10, gapAfter: 3 });
        else if (b.kind === 'quote') ctx.paragraph(b.text, { italic: true, indent: 14 });
        else ctx.paragraph(b.text);
      });
    },
  };
}

function gallerySection(): BookSection {
  return {
    id: 'gallery',
    present: (c) => c.gallery.length > 0,
    render(ctx) {
      ctx.sectionStart('Foto’s');
      for (const g of ctx.content.gallery) {
        ctx.photo(g.photo, g.caption);
        ctx.doc.moveDown(0.9);
      }
    },
  };
}

function memoriesSection(): BookSection {
  return {
    id: 'memories',
    present: (c) => c.memories.length > 0,
    render(ctx) {
      ctx.sectionStart('Herinneringen');
      for (const m of ctx.content.memories) {
        const head = [m.yearLabel, m.author ? `door ${m.author}` : ''].filter(Boolean).join(' — ');
        ctx.heading(head || 'Herinnering', m.text, 11.5);
        ctx.paragraph(m.text, { gapAfter: m.photos.length ? 6 : 14 });
        for (const p of m.photos) ctx.photo(p);
        if (m.photos.length) ctx.doc.moveDown(0.8);
      }
    },
  };
}

function guestbookSection(): BookSection {
  return {
    id: 'guestbook',
    present: (c) => c.guestbook.length > 0,
    render(ctx) {
      ctx.sectionStart('Condoleanceregister');
      for (const e of ctx.content.guestbook) {
        if (e.message) {
          ctx.heading(e.name, e.message, 11);
          ctx.paragraph(e.message, { gapAfter: 10 });
        } else ctx.paragraph(e.name, { gapAfter: 6 });
      }
    },
  };
}

function tributesSection(): BookSection {
  return {
    id: 'tributes',
    present: () => true,
    render(ctx) {
      ctx.sectionStart('Kaarsjes en bloemen');
      ctx.paragraph(tributesSentence(ctx.content.candleCount, ctx.content.flowerCount));
      ctx.doc.moveDown(2);
      ctx.paragraph(`Dit boek werd gemaakt met Aandenken op ${ctx.content.madeOn}.`, { italic: true });
    },
  };
}

/** The book's parts in order; a part without content (no biography, no guestbook) is left out. */
export const bookSections = (): BookSection[] => [
  coverSection(),
  biographySection(),
  gallerySection(),
  memoriesSection(),
  guestbookSection(),
  tributesSection(),
];

function cropMarks(doc: Doc, offset: number, bleed: boolean) {
  const gap = (bleed ? BLEED : 0) + 1.5 * MM;
  const len = offset - gap;
  const x0 = offset;
  const y0 = offset;
  const x1 = offset + A5.width;
  const y1 = offset + A5.height;
  doc.save().lineWidth(0.25).strokeColor('#000000');
  for (const [x, y, dx, dy] of [
    [x0, y0, -1, -1],
    [x1, y0, 1, -1],
    [x0, y1, -1, 1],
    [x1, y1, 1, 1],
  ] as const) {
    doc
      .moveTo(x + dx * gap, y)
      .lineTo(x + dx * (gap + len), y)
      .stroke();
    doc
      .moveTo(x, y + dy * gap)
      .lineTo(x, y + dy * (gap + len))
      .stroke();
  }
  doc.restore();
}

/**
 * Writes the book to `out`; `onPage` is told each new page (progress). Returns the number of pages.
 * Page 1 is the cover; the others carry a page number.
 */
export async function renderBook(
  content: BookContent,
  options: BookOptions,
  out: NodeJS.WritableStream,
  sections: BookSection[] = bookSections(),
): Promise<{ pageCount: number }> {
  const offset = (options.bleed ? BLEED : 0) + (options.cropMarks ? SLUG : 0);
  const doc = await createPdf({
    size: [A5.width + 2 * offset, A5.height + 2 * offset],
    typeface: 'serif',
    title: `In herinnering aan ${content.name}`,
    margins: {
      top: offset + MARGIN.top,
      bottom: offset + MARGIN.bottom,
      left: offset + MARGIN.side,
      right: offset + MARGIN.side,
    },
    autoFirstPage: false,
    bufferPages: true,
  });
  // Soft hyphens only mark where a word may break (pdfkit then ends the line with '-'); never drawn.
  const internal = doc as unknown as { _fragment: (t: string, ...rest: unknown[]) => unknown };
  const fragment = internal._fragment.bind(doc);
  internal._fragment = (t: string, ...rest: unknown[]) => fragment(t.replaceAll(SHY, ''), ...rest);
  doc.on('pageAdded', () => {
    const r = (n: number) => Math.round(n * 1000) / 1000;
    const data = doc.page.dictionary.data as Record<string, unknown>;
    data.TrimBox = [offset, offset, offset + A5.width, offset + A5.height].map(r);
    const b = options.bleed ? BLEED : 0;
    data.BleedBox = [offset - b, offset - b, offset + A5.width + b, offset + A5.height + b].map(r);
  });
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const left = offset + MARGIN.side;
  const body = (italic = false) =>
    doc
      .font(italic ? 'italic' : 'regular')
      .fontSize(BODY.size)
      .fillColor(INK);
  const lineHeight = () => body().currentLineHeight(true) + BODY.lineGap;

  const ctx: BookContext = {
    doc,
    content,
    options,
    offset,
    sectionStart(title) {
      doc.addPage();
      doc.font('bold').fontSize(17).fillColor(INK);
      doc.text(title, left, offset + MARGIN.top + 6 * MM, { width: CONTENT_WIDTH });
      doc.moveDown(1.2);
    },
    heading(text, next, size = 13) {
      doc.font('bold').fontSize(size);
      const h = doc.heightOfString(text, { width: CONTENT_WIDTH }) + size * 0.5;
      body();
      const followHeight = Math.min(
        doc.heightOfString(hyphenate(next), { width: CONTENT_WIDTH, lineGap: BODY.lineGap }),
        3 * lineHeight(),
      );
      // No heading alone at the foot of a page: it moves on with (up to) three lines of what follows.
      if (doc.y + h + followHeight > bottom()) doc.addPage();
      doc.font('bold').fontSize(size).fillColor(INK);
      doc.text(text, left, doc.y, { width: CONTENT_WIDTH });
      doc.moveDown(0.35);
    },
    paragraph(text, o = {}) {
      body(o.italic);
      const indent = o.indent ?? 0;
      // A paragraph does not start on the last line of a page.
      if (doc.y + 2 * lineHeight() > bottom()) doc.addPage();
      doc.text(hyphenate(text), left + indent, doc.y, {
        width: CONTENT_WIDTH - indent,
        align: 'justify',
        lineGap: BODY.lineGap,
        paragraphGap: o.gapAfter ?? 7,
      });
    },
    photo(p, caption) {
      const size = p.size;
      const captionText = caption ? hyphenate(caption) : '';
      const captionOptions = { width: CONTENT_WIDTH, align: 'center', lineGap: 1.5 } as const;
      body(true).fontSize(9);
      const captionHeight = captionText ? doc.heightOfString(captionText, captionOptions) + 4 : 0;
      if (doc.y + size.height + captionHeight > bottom()) doc.addPage();
      const x = left + (CONTENT_WIDTH - size.width) / 2;
      doc.image(p.jpeg, x, doc.y, { width: size.width, height: size.height });
      doc.y += size.height + 6;
      if (captionText) {
        body(true).fontSize(9).fillColor(MUTED);
        doc.text(captionText, left, doc.y, captionOptions);
      }
      doc.x = left;
    },
  };

  const done = new Promise<{ pageCount: number }>((resolve, reject) => {
    out.on('finish', () => resolve({ pageCount }));
    out.on('error', reject);
    doc.on('error', reject);
  });
  let pageCount = 0;
  doc.pipe(out);
  for (const s of sections) if (s.present(content)) s.render(ctx);
  const written = doc.bufferedPageRange().count;
  // Blank pages (no number) to the next multiple of 4, which is what a printer binds.
  while (doc.bufferedPageRange().count % PAGES_PER_SIGNATURE) doc.addPage();
  const range = doc.bufferedPageRange();
  pageCount = range.count;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    if (i > 0 && i < written) {
      // Written in the bottom margin: without it pdfkit would start a new page.
      const saved = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font('regular').fontSize(8.5).fillColor(MUTED);
      doc.text(String(i + 1), offset, offset + A5.height - 12 * MM, { width: A5.width, align: 'center' });
      doc.page.margins.bottom = saved;
    }
    if (options.cropMarks) cropMarks(doc, offset, options.bleed);
  }
  doc.end();
  return done;
}
