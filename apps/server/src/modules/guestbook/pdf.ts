import { A4, createPdf, pdfBytes } from '../../lib/pdf/document.ts';
import type { EntryRow } from './repository.ts';

const when = new Intl.DateTimeFormat('nl-NL', {
  timeZone: 'Europe/Amsterdam',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const INK = '#1a1a1f';
const SOFT = '#666673';

/**
 * The guestbook as a PDF (A4, Dutch): a title, then every entry with its name, message, address and time,
 * wrapped to the page and continued on new pages.
 */
export async function guestbookPdf(o: { name: string; entries: EntryRow[] }): Promise<Uint8Array> {
  const doc = await createPdf({
    size: [A4.width, A4.height],
    typeface: 'sans',
    title: `Condoleanceregister ${o.name}`,
  });
  const write = (
    text: string,
    s: { font?: 'regular' | 'bold' | 'italic'; size?: number; color?: string; gap?: number } = {},
  ) => {
    const size = s.size ?? 11;
    // Lines 1.4 times the font size apart.
    doc
      .font(s.font ?? 'regular')
      .fontSize(size)
      .fillColor(s.color ?? INK);
    doc.text(text, { lineGap: size * 1.4 - doc.currentLineHeight(true), paragraphGap: s.gap ?? 0 });
  };

  write('Condoleanceregister', { font: 'bold', size: 22, gap: 4 });
  write(o.name, { size: 16, gap: 8 });
  write(o.entries.length === 1 ? '1 inschrijving' : `${o.entries.length} inschrijvingen`, {
    size: 10,
    color: SOFT,
    gap: 18,
  });
  for (const e of o.entries) {
    write(e.name, { font: 'bold', size: 12, gap: 2 });
    if (e.message) write(e.message, { gap: 2 });
    if (e.address) write(e.address, { font: 'italic', size: 10, color: SOFT });
    write(when.format(new Date(e.created_at)), { size: 9, color: SOFT, gap: 14 });
  }
  return pdfBytes(doc);
}
