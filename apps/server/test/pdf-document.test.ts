import { describe, expect, it } from 'vitest';
import { pdfText } from './fixtures/pdf-reader.ts';
import { A4, createPdf, pdfBytes, printable } from '../src/lib/pdf/document.ts';

describe('lib/pdf', () => {
  it('leaves emoji out and closes the gap they leave; keeps symbols, soft hyphens and double spaces', () => {
    expect(printable('Rust zacht 🕊️ lieve oma ❤️!')).toBe('Rust zacht 🕊 lieve oma ❤!');
    expect(printable('Opa 👨‍👩‍👧 🇳🇱 👍🏽 weg')).toBe('Opa weg');
    expect(printable('🌹 Bloem\nRoos 🌹\n  inspringen ')).toBe('Bloem\nRoos\n  inspringen ');
    expect(printable('a™️ © €')).toBe('a™ © €');
    expect(printable('•  ver\u00ADe\u00ADni\u00ADging')).toBe('•  ver\u00ADe\u00ADni\u00ADging');
    // Without a glyph in the font: left out as well.
    expect(printable('Anna 你好 Li', (cp) => cp < 0x3000)).toBe('Anna Li');
  });

  it('prints what the font has and leaves out what it has not, never a box or a question mark', async () => {
    for (const typeface of ['sans', 'serif'] as const) {
      const doc = await createPdf({ size: [A4.width, A4.height], typeface, title: 'Proef' });
      doc.text('Ayşe Yılmaz, Łukasz Wiśniewski, Nguyễn Thị Thu');
      doc.font('bold').text('🕊️ Zhang 张伟 Wei ❤️ Čeněk Škvorecký');
      const text = pdfText(await pdfBytes(doc));
      expect(text, typeface).toMatch(/^Ayşe Yılmaz, Łukasz Wiśniewski, Nguyễn Thị Thu$/m);
      expect(text, typeface).toMatch(/^Zhang Wei Čeněk Škvorecký$/m);
    }
  });
});
