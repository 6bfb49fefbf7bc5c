import { escapeHtml } from '../../lib/mail-format.ts';
import { sanitizeBiography } from '../../shared/sanitize-biography.ts';

export interface ExportFile {
  /** Path inside the zip, relative to index.html (`media/<id>.<ext>`). */
  path: string;
  kind: 'image' | 'video';
  caption: string | null;
}
export interface StaticPage {
  name: string;
  birthDate: string | null;
  deathDate: string | null;
  birthPlace: string | null;
  deathPlace: string | null;
  quote: string | null;
  biographyHtml: string;
  cover: ExportFile | null;
  gallery: ExportFile[];
  memories: { yearLabel: string; text: string; authorName: string | null; media: ExportFile[] }[];
  candleCount: number;
  flowerCount: number;
  exportedAt: Date;
}

const dateNl = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('nl-NL', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A relative path the page may use: only what the export itself wrote (no scheme, no `..`). */
const safePath = (p: string) => (/^media\/[0-9a-f-]{36}\.[a-z0-9]{2,5}$/.test(p) ? p : '');

function figure(f: ExportFile, alt: string): string {
  const src = escapeHtml(safePath(f.path));
  const caption = f.caption ? `<figcaption>${escapeHtml(f.caption)}</figcaption>` : '';
  const body =
    f.kind === 'video'
      ? `<video controls preload="metadata" src="${src}"></video>`
      : `<a href="${src}"><img src="${src}" alt="${escapeHtml(f.caption ?? alt)}" loading="lazy"></a>`;
  return `<figure>${body}${caption}</figure>`;
}

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

const css = `
:root{color-scheme:light dark;--bg:#faf7f2;--fg:#2b2622;--muted:#6b625a;--card:#fff;--line:#e6ded3}
@media (prefers-color-scheme:dark){:root{--bg:#1d1a17;--fg:#f1ece5;--muted:#b6aca1;--card:#282420;--line:#3a342e}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:1.05rem/1.6 Georgia,'Times New Roman',serif}
main{max-width:46rem;margin:0 auto;padding:2rem 1.25rem 4rem}
header{text-align:center;margin-bottom:2rem}h1{font-size:2.2rem;margin:.5rem 0;font-weight:normal}
h2{font-size:1.4rem;font-weight:normal;border-bottom:1px solid var(--line);padding-bottom:.3rem;margin-top:2.5rem}
.dates,.muted,figcaption{color:var(--muted)}blockquote{font-style:italic;margin:1rem auto;max-width:32rem}
.cover img{max-width:100%;border-radius:.5rem}img,video{max-width:100%;height:auto;border-radius:.35rem}
figure{margin:0 0 1rem}.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.75rem}
article{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:1rem 1.25rem;margin-bottom:1rem}
.year{font-weight:bold}a{color:inherit}footer{margin-top:3rem;font-size:.9rem;color:var(--muted);text-align:center}
`;

/**
 * The memorial as one self-contained HTML file that opens from disk: inline CSS, media by relative path,
 * no script, and a Content-Security-Policy that allows nothing from the network. Every text is escaped;
 * the biography (stored HTML) goes through the same allow-list as on the web.
 */
export function renderStaticPage(p: StaticPage): string {
  const lifespan = [
    p.birthDate ? `${dateNl(p.birthDate)}${p.birthPlace ? `, ${p.birthPlace}` : ''}` : null,
    p.deathDate ? `${dateNl(p.deathDate)}${p.deathPlace ? `, ${p.deathPlace}` : ''}` : null,
  ]
    .filter(Boolean)
    .join(' – ');
  const biography = sanitizeBiography(p.biographyHtml);
  const memories = p.memories
    .map(
      (m) =>
        `<article><p class="year">${escapeHtml(m.yearLabel)}</p>${paragraphs(m.text)}${m.media
          .map((f) => figure(f, `Foto bij herinnering uit ${m.yearLabel}`))
          .join('')}${m.authorName ? `<p class="muted">— ${escapeHtml(m.authorName)}</p>` : ''}</article>`,
    )
    .join('\n');
  const tributes = [
    `${p.candleCount} ${p.candleCount === 1 ? 'kaarsje' : 'kaarsjes'} aangestoken`,
    p.flowerCount > 0 ? `${p.flowerCount} ${p.flowerCount === 1 ? 'bloem' : 'bloemen'} gelegd` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file:; media-src 'self' file:">
<meta name="referrer" content="no-referrer">
<title>In herinnering aan ${escapeHtml(p.name)}</title>
<style>${css}</style>
</head>
<body>
<main>
<header>
${p.cover ? `<div class="cover">${figure(p.cover, `Foto van ${p.name}`)}</div>` : ''}
<p class="muted">In herinnering aan</p>
<h1>${escapeHtml(p.name)}</h1>
${lifespan ? `<p class="dates">${escapeHtml(lifespan)}</p>` : ''}
${p.quote ? `<blockquote>${escapeHtml(p.quote)}</blockquote>` : ''}
<p class="muted" id="kaarsjes">${escapeHtml(tributes)}</p>
</header>
${biography ? `<section aria-labelledby="levensverhaal"><h2 id="levensverhaal">Levensverhaal</h2>${biography}</section>` : ''}
${p.gallery.length ? `<section aria-labelledby="fotos"><h2 id="fotos">Foto’s en video’s</h2><div class="gallery">${p.gallery.map((f) => figure(f, `Foto van ${p.name}`)).join('')}</div></section>` : ''}
<section aria-labelledby="herinneringen"><h2 id="herinneringen">Herinneringen</h2>
${memories || '<p class="muted">Er zijn nog geen herinneringen gedeeld.</p>'}
</section>
<footer>Een kopie van de gedenkpagina op Aandenken, gemaakt op ${escapeHtml(
    p.exportedAt.toLocaleDateString('nl-NL', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Europe/Amsterdam',
    }),
  )}. De gegevens staan ook in data.json; de foto’s en video’s in de map media.</footer>
</main>
</body>
</html>
`;
}
