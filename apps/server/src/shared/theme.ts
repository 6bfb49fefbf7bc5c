/**
 * The theme a visitor chose is kept in a cookie (apps/web/src/lib/theme.ts writes it), so every HTML page
 * arrives in that theme: no script has to run before the first paint, and nothing flashes. The built pages
 * are dark (the default); the light variant of a page is made once and kept as long as the page is.
 */
export const THEME_COOKIE = 'aandenken-theme';
export type Theme = 'light' | 'dark';

const LIGHT_THEME_COLOR = '#f8f5f0';

export function themeFromCookie(header: string | undefined): Theme {
  if (!header) return 'dark';
  for (const part of header.split(';')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === THEME_COOKIE) return value === 'light' ? 'light' : 'dark';
  }
  return 'dark';
}

const lightVariants = new WeakMap<Buffer, Buffer>();

/** The page as it should arrive for this theme. */
export function htmlForTheme(html: Buffer, theme: Theme): Buffer {
  if (theme === 'dark') return html;
  let light = lightVariants.get(html);
  if (!light) {
    light = Buffer.from(
      html
        .toString('utf8')
        .replace(/<html([^>]*?) class="dark"/, '<html$1')
        .replace(/(<meta name="theme-color" content=")[^"]*"/, `$1${LIGHT_THEME_COLOR}"`),
    );
    lightVariants.set(html, light);
  }
  return light;
}
