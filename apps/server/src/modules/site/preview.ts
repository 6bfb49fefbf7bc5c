import { SHARE_IMAGE } from './share-image.ts';

/**
 * What a link preview shows (Open Graph and Twitter's card), the canonical address and whether search
 * engines may list the page: the tags in a page's head, written by the server into the HTML it sends, so a
 * crawler that runs no JavaScript reads them.
 */
export interface Preview {
  title: string;
  description: string;
  /** Absolute; the page's share image. */
  image: string;
  imageAlt: string;
  /** Absolute; og:url and the canonical link. Absent for a page that has no one address (the shell). */
  url?: string;
  type?: 'website' | 'profile';
  noindex: boolean;
}

export const GENERIC_DESCRIPTION =
  'Aandenken: een plek waar herinneringen voortleven en liefde wordt gekoesterd.';
export const GENERIC_IMAGE_PATH = '/deelbeeld/aandenken.png';

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** At most `max` characters, cut at a word, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

export function previewTags(p: Preview): string {
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeAttr(value)}">`;
  return [
    meta('name', 'description', p.description),
    p.noindex ? meta('name', 'robots', 'noindex') : '',
    p.url ? `<link rel="canonical" href="${escapeAttr(p.url)}">` : '',
    meta('property', 'og:site_name', 'Aandenken'),
    meta('property', 'og:locale', 'nl_NL'),
    meta('property', 'og:type', p.type ?? 'website'),
    meta('property', 'og:title', p.title),
    meta('property', 'og:description', p.description),
    p.url ? meta('property', 'og:url', p.url) : '',
    meta('property', 'og:image', p.image),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(SHARE_IMAGE.width)),
    meta('property', 'og:image:height', String(SHARE_IMAGE.height)),
    meta('property', 'og:image:alt', p.imageAlt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', p.title),
    meta('name', 'twitter:description', p.description),
    meta('name', 'twitter:image', p.image),
  ].join('');
}

/** The page with these tags in its head, in place of the build's own description. */
export function withPreview(html: string, p: Preview): string {
  return html
    .replace(/<meta\s+name="description"[^>]*>\s*/, '')
    .replace('</head>', () => `${previewTags(p)}</head>`);
}

/** Aandenken itself, without a name or a photo: the site's pages, and every page that gives nothing away. */
export function genericPreview(publicUrl: string, o: { url?: string; noindex: boolean }): Preview {
  return {
    title: 'Aandenken',
    description: GENERIC_DESCRIPTION,
    image: `${publicUrl}${GENERIC_IMAGE_PATH}`,
    imageAlt: 'Aandenken: online gedenkpagina’s',
    ...(o.url ? { url: o.url } : {}),
    noindex: o.noindex,
  };
}
