/**
 * The memorial app ('Mijn Pagina's', /memorial/{id}) may live on a host of its own: VITE_APP_URL at
 * build time. Answers the full address there, or null when the app is on this origin (then a router link).
 */
export function appUrl(
  path: string,
  configured: string | undefined = import.meta.env.VITE_APP_URL as string | undefined,
  origin: string = typeof window === 'undefined' ? '' : window.location.origin,
): string | null {
  const base = (configured ?? '').trim().replace(/\/+$/, '');
  if (!base || base === origin) return null;
  return `${base}${path}`;
}
