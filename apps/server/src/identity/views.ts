import { routes } from '@aandenken/contract';

/**
 * The provider's server-rendered Dutch screens, in the site's look (resources/identity.css, both themes).
 * No inline script or style: the CSP allows only files from this origin.
 */

export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

type Html = { readonly html: string };
const raw = (html: string): Html => ({ html });
const h = (strings: TemplateStringsArray, ...values: unknown[]): Html =>
  raw(
    strings.reduce((out, s, i) => {
      if (i === 0) return s;
      const v = values[i - 1];
      const rendered = Array.isArray(v)
        ? v
            .map((x) => (typeof x === 'object' && x && 'html' in x ? (x as Html).html : escapeHtml(x)))
            .join('')
        : typeof v === 'object' && v && 'html' in v
          ? (v as Html).html
          : v === false || v === undefined || v === null
            ? ''
            : escapeHtml(v);
      return out + rendered + s;
    }, ''),
  );

export interface PageContext {
  /** Path of the realm on this origin, e.g. /realms/aandenken. */
  base: string;
  /** The site, for the logo link and "back" links. */
  siteUrl: string;
  /** From the site's theme cookie (shared/theme.ts); dark when absent. */
  theme?: 'light' | 'dark';
}

// The site's mark (apps/web/src/components/layout/logo.tsx): a candle flame in an open circle.
const logoMark = `<svg viewBox="0 0 32 32" aria-hidden="true" class="mark"><circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" stroke-opacity="0.35" stroke-width="1.5" stroke-dasharray="70 18" stroke-linecap="round" transform="rotate(120 16 16)"/><path d="M16 6.5c3.6 4.2 5.4 7.5 5.4 10.2a5.4 5.4 0 0 1-10.8 0c0-2.7 1.8-6 5.4-10.2Z" class="flame"/><path d="M16 13c1.6 1.9 2.4 3.3 2.4 4.5a2.4 2.4 0 0 1-4.8 0c0-1.2.8-2.6 2.4-4.5Z" class="flame-core"/><rect x="14.6" y="23" width="2.8" height="3.6" rx="1" class="wick"/></svg>`;

function layout(ctx: PageContext, title: string, body: Html, opts: { autoSubmit?: boolean } = {}): string {
  return `<!doctype html>
<html lang="nl"${ctx.theme === 'light' ? '' : ' class="dark"'}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Aandenken</title>
<link rel="stylesheet" href="${escapeHtml(ctx.base)}/resources/identity.css">
<script src="${escapeHtml(ctx.base)}/resources/identity.js"></script>
</head>
<body${opts.autoSubmit ? ' data-auto-submit' : ''}>
<header class="topbar"><a class="brand" href="${escapeHtml(ctx.siteUrl)}/" aria-label="Aandenken, naar de startpagina">${logoMark}<span>Aandenken</span></a></header>
<main class="auth">
<div class="card">
${body.html}
</div>
</main>
</body>
</html>`;
}

const alert = (kind: 'error' | 'info', text?: string) =>
  text
    ? h`<div class="alert alert-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`
    : raw('');

function field(opts: {
  id: string;
  label: string;
  type: string;
  value?: string;
  autocomplete: string;
  error?: string;
  hint?: string;
  autofocus?: boolean;
}): Html {
  const describedBy = [opts.hint ? `${opts.id}-hint` : '', opts.error ? `${opts.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return h`<div class="field">
<label for="${opts.id}">${opts.label}</label>
<input id="${opts.id}" name="${opts.id}" type="${opts.type}" autocomplete="${opts.autocomplete}"${raw(
    opts.value !== undefined ? ` value="${escapeHtml(opts.value)}"` : '',
  )}${raw(opts.error ? ' aria-invalid="true"' : '')}${raw(describedBy ? ` aria-describedby="${describedBy}"` : '')}${raw(
    opts.autofocus ? ' autofocus' : '',
  )}>
${opts.hint ? h`<p class="hint" id="${opts.id}-hint">${opts.hint}</p>` : ''}
${opts.error ? h`<p class="field-error" id="${opts.id}-error">${opts.error}</p>` : ''}
</div>`;
}

const csrfInput = (csrf: string) => h`<input type="hidden" name="csrf" value="${csrf}">`;

export interface InteractionView extends PageContext {
  uid: string;
  csrf: string;
  /** Google is configured: only then its button (without it, it would lead nowhere). */
  google: boolean;
}

const interactionPath = (v: InteractionView, suffix = '') => `${v.base}/interaction/${v.uid}${suffix}`;

/** "of" and the Google button, when Google is configured. */
function googleButton(v: InteractionView): Html {
  if (!v.google) return raw('');
  return h`<div class="divider"><span>of</span></div>
<form method="post" action="${interactionPath(v, '/google')}" class="google-form">
${csrfInput(v.csrf)}
<button type="submit" class="btn btn-secondary"><span class="google-g" aria-hidden="true">G</span> Inloggen met Google</button>
</form>`;
}

export function loginPage(v: InteractionView & { email?: string; error?: string; info?: string }): string {
  return layout(
    v,
    'Inloggen',
    h`<h1>Inloggen</h1>
<p class="lead">Log in om je gedenkpagina’s te maken en te beheren.</p>
${alert('error', v.error)}${alert('info', v.info)}
<form method="post" action="${interactionPath(v, '/login')}" novalidate>
${csrfInput(v.csrf)}
${field({ id: 'email', label: 'E-mailadres', type: 'email', value: v.email ?? '', autocomplete: 'username', autofocus: !v.email })}
${field({ id: 'password', label: 'Wachtwoord', type: 'password', autocomplete: 'current-password', autofocus: !!v.email })}
<p class="row-end"><a href="${interactionPath(v, '/forgot')}">Wachtwoord vergeten?</a></p>
<button type="submit" class="btn btn-primary">Inloggen</button>
</form>
${googleButton(v)}
<p class="switch">Nog geen account? <a href="${interactionPath(v, '?scherm=registreren')}">Account aanmaken</a></p>`,
  );
}

export function registerPage(
  v: InteractionView & {
    values: { name?: string; email?: string };
    fields?: Record<string, string>;
    error?: string;
  },
): string {
  const f = v.fields ?? {};
  return layout(
    v,
    'Account aanmaken',
    h`<h1>Account aanmaken</h1>
<p class="lead">Met een account maak je een gedenkpagina en beheer je hem later.</p>
${alert('error', v.error)}
<form method="post" action="${interactionPath(v, '/register')}" novalidate>
${csrfInput(v.csrf)}
${field({ id: 'name', label: 'Je naam', type: 'text', value: v.values.name ?? '', autocomplete: 'name', error: f.name, autofocus: true })}
${field({ id: 'email', label: 'E-mailadres', type: 'email', value: v.values.email ?? '', autocomplete: 'email', error: f.email })}
${field({ id: 'password', label: 'Wachtwoord', type: 'password', autocomplete: 'new-password', error: f.password, hint: 'Minstens 8 tekens.' })}
${field({ id: 'passwordRepeat', label: 'Herhaal wachtwoord', type: 'password', autocomplete: 'new-password', error: f.passwordRepeat })}
<p class="hint">Met je account ga je akkoord met de <a href="${v.siteUrl}${routes.terms}">algemene voorwaarden</a> en het <a href="${v.siteUrl}${routes.privacy}">privacybeleid</a>.</p>
<button type="submit" class="btn btn-primary">Account aanmaken</button>
</form>
${googleButton(v)}
<p class="switch">Heb je al een account? <a href="${interactionPath(v, '?scherm=inloggen')}">Inloggen</a></p>`,
  );
}

export function forgotPage(v: InteractionView & { email?: string; error?: string; sent?: boolean }): string {
  if (v.sent) {
    return layout(
      v,
      'Controleer je e-mail',
      h`<h1>Controleer je e-mail</h1>
<p class="lead" role="status">Als er een account bij dit e-mailadres hoort, ontvang je binnen enkele minuten een e-mail met een link om een nieuw wachtwoord in te stellen.</p>
<p class="switch"><a href="${interactionPath(v, '?scherm=inloggen')}">Terug naar inloggen</a></p>`,
    );
  }
  return layout(
    v,
    'Wachtwoord vergeten',
    h`<h1>Wachtwoord vergeten</h1>
<p class="lead">Vul je e-mailadres in. We sturen je een link om een nieuw wachtwoord in te stellen.</p>
<form method="post" action="${interactionPath(v, '/forgot')}" novalidate>
${csrfInput(v.csrf)}
${field({ id: 'email', label: 'E-mailadres', type: 'email', value: v.email ?? '', autocomplete: 'email', error: v.error, autofocus: true })}
<button type="submit" class="btn btn-primary">Stuur link</button>
</form>
<p class="switch"><a href="${interactionPath(v, '?scherm=inloggen')}">Terug naar inloggen</a></p>`,
  );
}

const hiddenInputs = (values: Record<string, string | undefined> = {}) =>
  Object.entries(values)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => h`<input type="hidden" name="${name}" value="${value}">`);

function newPasswordForm(
  ctx: PageContext & { token: string; csrf: string; fields?: Record<string, string> },
  opts: {
    action: string;
    title: string;
    heading: string;
    lead: string;
    button: string;
    hint?: string;
    hidden?: Record<string, string | undefined>;
  },
): string {
  const f = ctx.fields ?? {};
  return layout(
    ctx,
    opts.title,
    h`<h1>${opts.heading}</h1>
<p class="lead">${opts.lead}</p>
<form method="post" action="${ctx.base}/login-actions/${opts.action}" novalidate>
${csrfInput(ctx.csrf)}
<input type="hidden" name="token" value="${ctx.token}">
${hiddenInputs(opts.hidden)}
${field({ id: 'password', label: 'Nieuw wachtwoord', type: 'password', autocomplete: 'new-password', error: f.password, hint: 'Minstens 8 tekens.', autofocus: true })}
${field({ id: 'passwordRepeat', label: 'Herhaal wachtwoord', type: 'password', autocomplete: 'new-password', error: f.passwordRepeat })}
${opts.hint ? h`<p class="hint">${opts.hint}</p>` : ''}
<button type="submit" class="btn btn-primary">${opts.button}</button>
</form>`,
  );
}

export function resetPasswordPage(
  ctx: PageContext & { token: string; csrf: string; fields?: Record<string, string> },
): string {
  return newPasswordForm(ctx, {
    action: 'reset-password',
    title: 'Nieuw wachtwoord',
    heading: 'Nieuw wachtwoord instellen',
    lead: 'Kies een nieuw wachtwoord van minstens 8 tekens.',
    button: 'Wachtwoord opslaan',
  });
}

export interface VerifyView extends PageContext {
  token: string;
  csrf: string;
  /** The site path the person returns to afterwards (already checked by `safeReturnPath`). */
  returnPath?: string | undefined;
  fields?: Record<string, string>;
  error?: string | undefined;
}

const verifyLink = (v: VerifyView, extra: Record<string, string> = {}) =>
  `${v.base}/login-actions/verify-email?${new URLSearchParams({
    token: v.token,
    ...(v.returnPath ? { terug: v.returnPath } : {}),
    ...extra,
  })}`;

/**
 * The confirmation link opened where the account is not signed in (another device, a mail scanner):
 * the account's password confirms in one step; whoever does not know it (or did not make the account)
 * chooses a new one instead.
 */
export function verifyEmailPage(v: VerifyView & { email: string }): string {
  const f = v.fields ?? {};
  return layout(
    v,
    'E-mailadres bevestigen',
    h`<h1>Bevestig je e-mailadres</h1>
<p class="lead">Vul het wachtwoord van je account in om <strong>${v.email}</strong> te bevestigen. Op het apparaat waarop je bent ingelogd, is één klik op de link genoeg.</p>
${alert('error', v.error)}
<form method="post" action="${v.base}/login-actions/verify-email" novalidate>
${csrfInput(v.csrf)}
<input type="hidden" name="token" value="${v.token}">
${hiddenInputs({ terug: v.returnPath, stap: 'wachtwoord' })}
${field({ id: 'password', label: 'Wachtwoord', type: 'password', autocomplete: 'current-password', error: f.password, autofocus: true })}
<button type="submit" class="btn btn-primary">E-mailadres bevestigen</button>
</form>
<p class="switch">Weet je het wachtwoord niet, of heb je dit account niet zelf aangemaakt? <a href="${verifyLink(v, { nieuw: '1' })}">Kies een nieuw wachtwoord</a></p>`,
  );
}

/**
 * The holder of the mailbox does not know the account's password: they choose one, and every sign-in
 * from before ends (it may be a stranger's who registered the address first).
 */
export function verifyNewPasswordPage(v: VerifyView): string {
  return newPasswordForm(v, {
    action: 'verify-email',
    title: 'E-mailadres bevestigen',
    heading: 'Kies een nieuw wachtwoord',
    lead: 'Kies een wachtwoord om je e-mailadres te bevestigen.',
    hint: 'Daarna log je op al je apparaten opnieuw in, met dit wachtwoord.',
    button: 'E-mailadres bevestigen',
    hidden: { terug: v.returnPath, stap: 'nieuw' },
  });
}

export function messagePage(
  ctx: PageContext,
  opts: { title: string; text: string; link?: { href: string; label: string }; tone?: 'info' | 'error' },
): string {
  return layout(
    ctx,
    opts.title,
    h`<h1>${opts.title}</h1>
<p class="lead"${raw(opts.tone === 'error' ? ' role="alert"' : ' role="status"')}>${opts.text}</p>
${opts.link ? h`<p><a class="btn btn-primary" href="${opts.link.href}">${opts.link.label}</a></p>` : ''}`,
  );
}

export function logoutPage(ctx: PageContext & { form: string; auto: boolean }): string {
  // `form` is the provider's own form (action and xsrf value come from oidc-provider, already escaped).
  return layout(
    ctx,
    'Uitloggen',
    h`<h1>${ctx.auto ? 'Je wordt uitgelogd…' : 'Wil je uitloggen?'}</h1>
<p class="lead">${ctx.auto ? 'Een ogenblik geduld.' : 'Je wordt uitgelogd bij Aandenken op dit apparaat.'}</p>
${raw(ctx.form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>'))}
<div class="actions">
<button type="submit" form="op.logoutForm" class="btn btn-primary" autofocus>Uitloggen</button>
<a class="btn btn-secondary" href="${ctx.siteUrl}/">Ingelogd blijven</a>
</div>`,
    { autoSubmit: ctx.auto },
  );
}

export function errorPage(ctx: PageContext, opts: { error?: string; description?: string }): string {
  return layout(
    ctx,
    'Er ging iets mis',
    h`<h1>Er ging iets mis</h1>
<p class="lead" role="alert">Het inloggen kon niet worden voltooid. Ga terug naar de website en probeer het opnieuw.</p>
<p><a class="btn btn-primary" href="${ctx.siteUrl}/">Terug naar Aandenken</a></p>
${opts.error ? h`<p class="hint">Foutcode: ${opts.error}${opts.description ? ` (${opts.description})` : ''}</p>` : ''}`,
  );
}
