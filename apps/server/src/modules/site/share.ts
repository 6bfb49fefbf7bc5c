import { routes } from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { genericPreview, shorten, type Preview } from './preview.ts';
import { siteRepository } from './repository.ts';
import {
  genericShareContent,
  renderShareImage,
  shareImageCache,
  shareImageVersion,
  type ShareImageContent,
} from './share-image.ts';

/** The fields of the API's memorial answer (GET /core/memorial/{id}) a preview uses. */
export interface MemorialForPreview {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  deathDate: string | null;
  quote: string | null;
  searchEngines: boolean;
}

/** The fields of a company's public answer (GET /core/public/companies/{slug}) a preview uses. */
export interface CompanyForPreview {
  slug: string;
  name: string;
  city: string | null;
  description: string | null;
}

/** A share image: its version (the ETag, and the `v` of its address) and the PNG, made on first use. */
export interface ShareImage {
  version: string;
  png: () => Promise<Buffer>;
}

const year = (date: string | null) => (date ? date.slice(0, 4) : null);
/** '1948 – 2024', '† 2024', '* 1948' or null: as the page's head shows them. */
export function lifeYears(m: Pick<MemorialForPreview, 'birthDate' | 'deathDate'>): string | null {
  const born = year(m.birthDate);
  const died = year(m.deathDate);
  if (born && died) return `${born} – ${died}`;
  if (died) return `† ${died}`;
  if (born) return `* ${born}`;
  return null;
}

const initialsOf = (name: string) => {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w));
  const picked = words.length >= 2 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return picked.map((w) => [...w][0]).join('') || ([...name.trim()][0] ?? '').toUpperCase();
};

/**
 * Link previews and share images of the public pages (docs/decisions/005-app-links-and-examples.md): a public
 * memorial's name, years and portrait, a company's name and place, and for everything else Aandenken itself.
 * An image is made once per version (a hash of what it shows: the portrait's id, the name, the years) and
 * kept; a change gives a new version, so a new address, and the old one is made again with its new ETag.
 */
export function shareService({ db, storage, config }: Pick<Deps, 'db' | 'storage' | 'config'>) {
  const repo = siteRepository(db);
  const cache = shareImageCache();
  const origin = config.PUBLIC_URL;

  const image = (key: string, version: string, content: () => Promise<ShareImageContent>): ShareImage => ({
    version,
    png: () => cache(`${key}:${version}`, async () => renderShareImage(await content())),
  });

  const generic = image('generic', shareImageVersion(['generic']), async () => genericShareContent());

  async function memorialImage(m: MemorialForPreview): Promise<ShareImage> {
    const portrait = await repo.portraitOf(m.id);
    const name = `${m.firstName} ${m.lastName}`;
    const years = lifeYears(m);
    return image(
      `memorial:${m.id}`,
      shareImageVersion(['memorial', m.id, portrait?.mediaId, name, years]),
      async () => ({
        // A photo that cannot be read (moved, a storage hiccup) leaves the calm panel, not a failed preview.
        portrait: portrait ? await storage.read(portrait.storageKey).catch(() => null) : null,
        initials: initialsOf(name),
        eyebrow: 'Ter nagedachtenis aan',
        title: name,
        subtitle: years,
      }),
    );
  }

  function companyImage(c: CompanyForPreview): ShareImage {
    return image(`company:${c.slug}`, shareImageVersion(['company', c.slug, c.name, c.city]), async () => ({
      portrait: null,
      initials: initialsOf(c.name),
      eyebrow: 'Uitvaartondernemer',
      title: c.name,
      subtitle: c.city,
    }));
  }

  return {
    generic,
    memorialImage,
    companyImage,

    /** A public memorial's preview; its canonical address is the readable one. */
    async memorialPreview(m: MemorialForPreview): Promise<Preview> {
      const name = `${m.firstName} ${m.lastName}`;
      const years = lifeYears(m);
      const img = await memorialImage(m);
      const invitation = 'Lees de herinneringen, steek een kaarsje aan of deel een herinnering.';
      return {
        title: years ? `${name} (${years})` : name,
        description: shorten(
          m.quote
            ? `“${m.quote}” Ter nagedachtenis aan ${name}. ${invitation}`
            : `Ter nagedachtenis aan ${name}${years ? `, ${years}` : ''}. ${invitation}`,
          200,
        ),
        image: `${origin}/deelbeeld/gedenkpagina/${m.id}.png?v=${img.version}`,
        imageAlt: `Ter nagedachtenis aan ${name}${years ? `, ${years}` : ''}`,
        url: `${origin}${routes.memorialBySlug(m.slug)}`,
        type: 'profile',
        // Listed by search engines only when the family chose so (docs/decisions/020-search-engines.md).
        noindex: !m.searchEngines,
      };
    },

    companyPreview(c: CompanyForPreview): Preview {
      const img = companyImage(c);
      return {
        title: c.city ? `${c.name}, uitvaartondernemer in ${c.city}` : `${c.name}, uitvaartondernemer`,
        description: shorten(
          c.description ??
            `${c.name}${c.city ? ` in ${c.city}` : ''}: contactgegevens, werkgebied en prijzen op Aandenken.`,
          200,
        ),
        image: `${origin}/deelbeeld/uitvaartondernemer/${c.slug}.png?v=${img.version}`,
        imageAlt: c.name,
        url: `${origin}${routes.companyPage(c.slug)}`,
        noindex: false,
      };
    },

    /** The directory: listed; a search in it is not (its canonical is the directory itself). */
    directoryPreview(search: string): Preview {
      return {
        ...genericPreview(origin, { url: `${origin}${routes.companyDirectory}`, noindex: search !== '' }),
        title: 'Vind een uitvaartondernemer · Aandenken',
        description: 'Uitvaartondernemers die met Aandenken werken: zoek op naam of plaats.',
      };
    },

    /** The sitemap's addresses: the site's public pages, the companies and the pages families chose to list. */
    async sitemap(): Promise<Array<{ loc: string; lastmod?: string }>> {
      const site = [
        routes.home,
        routes.example,
        routes.pricing,
        routes.partner,
        routes.contact,
        routes.privatePage,
        routes.privacy,
        routes.terms,
        routes.companyDirectory,
      ].map((p) => ({ loc: `${origin}${p === '/' ? '/' : p}` }));
      const companies = (await repo.companySlugs(10_000)).map((slug) => ({
        loc: `${origin}${routes.companyPage(slug)}`,
      }));
      const memorials = (await repo.findableMemorials(40_000)).map((m) => ({
        loc: `${origin}${routes.memorialBySlug(m.slug)}`,
        lastmod: new Date(m.updated_at).toISOString().slice(0, 10),
      }));
      return [...site, ...companies, ...memorials];
    },

    robots(): string {
      return [
        'User-agent: *',
        'Allow: /',
        // The API, the sign-in service, and the pages of one person or one link: never in a search engine.
        ...[
          '/core/',
          '/realms/',
          '/auth/',
          '/account',
          '/mijn-paginas',
          '/memorial/*/beheer',
          '/g/',
          '/uitnodiging/',
          '/overnemen/',
          '/meldingen/',
          '/page/payment/',
          '/partner',
          '/team/',
          '/create-memorial',
          '/protect-memorial',
          '/verify-memorial',
        ].map((p) => `Disallow: ${p}`),
        '',
        `Sitemap: ${origin}/sitemap.xml`,
        '',
      ].join('\n');
    },
  };
}
export type ShareService = ReturnType<typeof shareService>;
