import type { EntryRow } from './repository.ts';

/** The standard fonts speak WinAnsi: anything else becomes '?'. */
const winAnsi = (s: string) => s.replace(/[^\x20-\x7E\u00A0-\u00FF€–—‘’“”…]/g, '?');

const when = new Intl.DateTimeFormat('nl-NL', {
  timeZone: 'Europe/Amsterdam',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * The guestbook as a PDF (A4, Dutch): a title, then every entry with its name, message, address and time,
 * wrapped to the page and continued on new pages. Made with pdf-lib (loaded on first use) and its standard
 * fonts, as the invoices are.
 */
export async function guestbookPdf(o: { name: string; entries: EntryRow[] }): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(`Condoleanceregister ${o.name}`);
  doc.setLanguage('nl-NL');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const ink = rgb(0.1, 0.1, 0.12);
  const soft = rgb(0.4, 0.4, 0.45);
  const [W, H, M] = [595.28, 841.89, 56];
  let page = doc.addPage([W, H]);
  let y = H - M;

  type Font = typeof font;
  const wrap = (text: string, f: Font, size: number): string[] => {
    const out: string[] = [];
    for (const para of winAnsi(text).split(/\r?\n/)) {
      let line = '';
      for (const word of para.split(/\s+/).filter(Boolean)) {
        const next = line ? `${line} ${word}` : word;
        if (f.widthOfTextAtSize(next, size) <= W - 2 * M) line = next;
        else {
          if (line) out.push(line);
          // A word wider than the line is cut.
          let rest = word;
          while (f.widthOfTextAtSize(rest, size) > W - 2 * M) {
            let n = rest.length - 1;
            while (n > 1 && f.widthOfTextAtSize(rest.slice(0, n), size) > W - 2 * M) n--;
            out.push(rest.slice(0, n));
            rest = rest.slice(n);
          }
          line = rest;
        }
      }
      out.push(line);
    }
    return out;
  };
  const write = (text: string, o2: { f?: Font; size?: number; color?: typeof ink; gap?: number } = {}) => {
    const f = o2.f ?? font;
    const size = o2.size ?? 11;
    for (const l of wrap(text, f, size)) {
      if (y < M + size) {
        page = doc.addPage([W, H]);
        y = H - M;
      }
      page.drawText(l, { x: M, y: y - size, size, font: f, color: o2.color ?? ink });
      y -= size * 1.4;
    }
    y -= o2.gap ?? 0;
  };

  write('Condoleanceregister', { f: bold, size: 22, gap: 4 });
  write(o.name, { size: 16, gap: 8 });
  write(o.entries.length === 1 ? '1 inschrijving' : `${o.entries.length} inschrijvingen`, {
    size: 10,
    color: soft,
    gap: 18,
  });
  for (const e of o.entries) {
    write(e.name, { f: bold, size: 12, gap: 2 });
    if (e.message) write(e.message, { gap: 2 });
    if (e.address) write(e.address, { f: italic, size: 10, color: soft });
    write(when.format(new Date(e.created_at)), { size: 9, color: soft, gap: 14 });
  }
  return doc.save();
}
