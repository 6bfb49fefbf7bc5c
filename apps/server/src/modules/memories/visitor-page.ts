import { routes } from '@aandenken/contract';
import { escapeHtml } from '../../lib/mail-format.ts';
import type { VisitorConfirmation } from './visitor-service.ts';

const texts: Record<VisitorConfirmation['outcome'], { status: number; title: string; body: string }> = {
  confirmed: {
    status: 200,
    title: 'Dank je, je herinnering is bevestigd en wacht op goedkeuring van de familie',
    body: 'Zodra de familie je herinnering heeft goedgekeurd, staat ze op de gedenkpagina, met je naam erbij.',
  },
  used: {
    status: 410,
    title: 'Deze link is al gebruikt',
    body: 'Je herinnering is al bevestigd, of ze bestaat niet meer. Je hoeft niets meer te doen.',
  },
  expired: {
    status: 410,
    title: 'Deze link is verlopen',
    body: 'De link werkt een week. Wil je je herinnering toch delen? Laat haar dan opnieuw achter op de gedenkpagina.',
  },
  invalid: {
    status: 400,
    title: 'Deze link klopt niet',
    body: 'Misschien is de link niet helemaal meegekomen. Open hem opnieuw vanuit de mail, of kopieer het hele adres.',
  },
  off: {
    status: 403,
    title: 'De familie neemt nu geen herinneringen aan',
    body: 'Op deze gedenkpagina kunnen bezoekers op dit moment geen herinnering achterlaten. Je herinnering is niet gedeeld.',
  },
};

/** A calm page in the site's colours, light or dark as the visitor's device prefers. */
export function visitorConfirmPage(r: VisitorConfirmation): { status: number; html: string } {
  const t = texts[r.outcome];
  const back =
    r.memorialId && r.memorialName
      ? `<a href="${escapeHtml(routes.memorial(r.memorialId))}">Naar de gedenkpagina van ${escapeHtml(r.memorialName)}</a>`
      : `<a href="/">Naar Aandenken</a>`;
  const html = `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(t.title)} · Aandenken</title>
<style>
  :root { --bg: #faf7f2; --fg: #2b2622; --muted: #5f574f; --card: #ffffff; --border: #e6dfd5; --link: #6b4e2e; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #1c1a18; --fg: #f1ece5; --muted: #c9c0b5; --card: #262320; --border: #3a3531; --link: #e8c99f; }
  }
  body { margin: 0; background: var(--bg); color: var(--fg); font: 1.0625rem/1.6 system-ui, sans-serif; }
  main { max-width: 34rem; margin: 12vh auto 4rem; padding: 2rem 1.5rem; background: var(--card);
         border: 1px solid var(--border); border-radius: 1rem; }
  h1 { font-family: Georgia, 'Times New Roman', serif; font-weight: 400; font-size: 1.6rem; line-height: 1.3; margin: 0 0 1rem; }
  p { color: var(--muted); margin: 0 0 1.5rem; }
  a { color: var(--link); display: inline-block; padding: 0.5rem 0; min-height: 24px; }
  @media (max-width: 36rem) { main { margin: 1rem; } }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.body)}</p>
<p>${back}</p>
</main>
</body>
</html>`;
  return { status: t.status, html };
}
