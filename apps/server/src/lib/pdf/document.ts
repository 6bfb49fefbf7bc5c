import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';

/**
 * Every PDF the server makes starts here (docs/decisions/024-one-pdf-library.md): pdfkit, with fonts from npm
 * packages embedded as subsets, so a name such as 'Ayşe Yılmaz', 'Łukasz Wiśniewski' or 'Nguyễn Thị Thu' is
 * printed as written. Text a font cannot draw (emoji, scripts it lacks) is left out rather than shown as a box.
 */
const require = createRequire(import.meta.url);

export type PdfDoc = InstanceType<typeof PDFDocument>;
export type Typeface = 'sans' | 'serif';

/** A4 portrait in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
export const MM = 72 / 25.4;

const arimo = (style: string) => require.resolve(`@expo-google-fonts/arimo/${style}/Arimo_${style}.ttf`);
const literata = (style: string) =>
  require.resolve(`@expo-google-fonts/literata/${style}/Literata_${style}.ttf`);

/**
 * The font files: sans is Arimo (Helvetica's widths, so the guestbook and the invoice keep their look), serif is
 * Literata (the printed book). Each registers as 'regular', 'italic' and 'bold'.
 */
export const typefaces: Record<Typeface, Record<'regular' | 'italic' | 'bold', string>> = {
  sans: { regular: arimo('400Regular'), italic: arimo('400Regular_Italic'), bold: arimo('700Bold') },
  serif: {
    regular: literata('400Regular'),
    italic: literata('400Regular_Italic'),
    bold: literata('600SemiBold'),
  },
};

// Pictographs shown as emoji, their skin tones, joiners, variation selectors, flags and tag sequences.
const EMOJI =
  /\p{Emoji_Presentation}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0E|\uFE0F|\u20E3|[\u{E0020}-\u{E007F}]/gu;

/**
 * The text as a font can print it: emoji and characters without a glyph in the font are left out (a box or a
 * '?' reads worse than nothing), the spaces they leave are closed (one between words, none at a line's ends).
 * Soft hyphens stay: they mark line breaks. Text that loses nothing is returned as it was, so pdfkit's measuring
 * of single words and spaces as it wraps is unchanged.
 */
export function printable(text: string, hasGlyph: (codePoint: number) => boolean = () => true): string {
  return (
    text
      // \0 marks what is left out, so that only the spaces around it are closed.
      .replaceAll('\0', '')
      .replace(EMOJI, '\0')
      .replace(/[^\s\u00AD\0]/gu, (ch) => (hasGlyph(ch.codePointAt(0)!) ? ch : '\0'))
      .replace(/([ \t]*)\0[\0 \t]*/g, (gap: string, before: string, at: number, all: string) => {
        const edge =
          at === 0 || all[at - 1] === '\n' || at + gap.length === all.length || all[at + gap.length] === '\n';
        return !edge && (before || /[ \t]$/.test(gap)) ? ' ' : '';
      })
  );
}

export interface PdfOptions {
  size: [number, number];
  typeface: Typeface;
  title: string;
  author?: string;
  margins?: { top: number; bottom: number; left: number; right: number };
  autoFirstPage?: boolean;
  bufferPages?: boolean;
}

type FontInternals = { _font?: { font?: { hasGlyphForCodePoint?: (cp: number) => boolean } } };

/**
 * A new PDF in Dutch with the typeface registered ('regular', 'italic', 'bold'; 'regular' is selected).
 * pdfkit is loaded with the first PDF, not with the server.
 */
export async function createPdf(o: PdfOptions): Promise<PdfDoc> {
  const { default: PDFKit } = await import('pdfkit');
  const face = typefaces[o.typeface];
  const doc = new PDFKit({
    size: o.size,
    margins: o.margins ?? { top: 56, bottom: 56, left: 56, right: 56 },
    autoFirstPage: o.autoFirstPage ?? true,
    bufferPages: o.bufferPages ?? false,
    font: face.regular,
    lang: 'nl-NL',
    displayTitle: true,
    info: { Title: o.title, Author: o.author ?? 'Aandenken', Creator: 'Aandenken' },
  });
  doc.registerFont('regular', face.regular);
  doc.registerFont('italic', face.italic);
  doc.registerFont('bold', face.bold);
  doc.font('regular');
  // Every text goes through `printable` with the font in use, measured as it is drawn.
  const font = () => (doc as unknown as FontInternals)._font?.font;
  const hasGlyph = (cp: number) => font()?.hasGlyphForCodePoint?.(cp) ?? true;
  const target = doc as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['text', 'widthOfString', 'heightOfString']) {
    const original = target[name]!.bind(doc);
    target[name] = (t: unknown, ...rest: unknown[]) =>
      original(typeof t === 'string' ? printable(t, hasGlyph) : t, ...rest);
  }
  return doc;
}

/** Ends the document and gives its bytes. */
export function pdfBytes(doc: PdfDoc): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.end();
  });
}
