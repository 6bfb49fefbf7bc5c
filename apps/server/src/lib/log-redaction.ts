import type { FastifyServerOptions, RouteOptions } from 'fastify';
import type { Config } from '../config.ts';

/** What a masked secret reads as in the log. */
export const REDACTED = '[verborgen]';

/**
 * The parts of one route's address that never belong in a log: path parameters and query parameters by
 * name. Secrets (handover and invite codes, guestbook keys, mailed tokens, link signatures, OpenID
 * Connect codes and states) and e-mail addresses.
 */
export interface SecretFields {
  params?: readonly string[];
  query?: readonly string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The parts of this route's address that are secrets: masked in every log line that shows it. */
    logSecrets?: SecretFields;
  }
}

interface Declaration {
  /** Static segments lower-cased; `null` for a parameter. */
  segments: (string | null)[];
  /** The pattern ends in `*`: any number of further segments. */
  rest: boolean;
  /** Indexes of the segments to mask. */
  masked: Set<number>;
  query: Set<string>;
}

export interface UrlRedactor {
  /**
   * Declares a route pattern in Fastify's style (`/core/guestbook/:token`, `/realms/aandenken/*`) whose
   * named parts are secrets. Throws when a named parameter is not a whole segment of the pattern.
   */
  declare(pattern: string, fields: SecretFields): void;
  /** Fastify's onRoute hook: declares what a route names in `config.logSecrets`. */
  onRoute(route: RouteOptions): void;
  /** The URL as it may be logged: every declared secret of every route it matches masked. */
  redact(url: string): string;
  /** A text (a log line, an error's message or stack) with every address in it redacted. */
  redactText(text: string): string;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** A segment as the router compares it: up to a `;` or `#`, decoded, lower case (case only over-masks). */
const routed = (segment: string) => decoded(segment.split(/[;#]/, 1)[0]!);

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
/**
 * Addresses inside a text: an optional origin, then a path with its query. A backslash ends one, so a
 * JSON escape next to it (a quote, a newline) stays whole.
 */
const ADDRESS = /(?:\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#"'<>`\\]*)?\/[^\s"'<>`\\]*/gi;

/**
 * Masks secrets in logged addresses by route: each route (or page) declares which of its parameters are
 * secret, so a new route with a secret needs one declaration and nothing else.
 */
export function urlRedactor(declarations: Iterable<readonly [string, SecretFields]> = []): UrlRedactor {
  const declared: Declaration[] = [];
  const seen = new Set<string>();

  function declare(pattern: string, fields: SecretFields) {
    const key = `${pattern} ${JSON.stringify(fields)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const parts = pattern.split('/').filter(Boolean);
    const rest = parts.at(-1) === '*';
    if (rest) parts.pop();
    const masked = new Set<number>();
    for (const name of fields.params ?? []) {
      const index = parts.indexOf(`:${name}`);
      if (index === -1) throw new Error(`logSecrets: ${pattern} has no path parameter :${name}`);
      masked.add(index);
    }
    declared.push({
      segments: parts.map((p) => (p.startsWith(':') ? null : p.toLowerCase())),
      rest,
      masked,
      query: new Set((fields.query ?? []).map((q) => q.toLowerCase())),
    });
  }

  function redact(url: string): string {
    const origin = ORIGIN.exec(url)?.[0] ?? '';
    const q = url.indexOf('?', origin.length);
    const raw = url.slice(origin.length, q === -1 ? undefined : q).split('/');
    // Empty segments (doubled or trailing slashes) are skipped: the pages ignore a trailing slash.
    const present = raw.flatMap((s, i) => (s === '' ? [] : [i]));
    const maskSegments = new Set<number>();
    const maskQuery = new Set<string>();
    for (const d of declared) {
      if (d.rest ? present.length < d.segments.length : present.length !== d.segments.length) continue;
      if (!d.segments.every((s, i) => s === null || s === routed(raw[present[i]!]!))) continue;
      for (const i of d.masked) maskSegments.add(present[i]!);
      for (const name of d.query) maskQuery.add(name);
    }
    if (maskSegments.size === 0 && maskQuery.size === 0) return url;
    const path = raw.map((s, i) => (maskSegments.has(i) ? REDACTED : s)).join('/');
    if (q === -1) return `${origin}${path}`;
    const query = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq !== -1 && maskQuery.has(decoded(pair.slice(0, eq)))
          ? `${pair.slice(0, eq)}=${REDACTED}`
          : pair;
      })
      .join('&');
    return `${origin}${path}?${query}`;
  }

  for (const [pattern, fields] of declarations) declare(pattern, fields);

  return {
    declare,
    onRoute(route) {
      const fields = route.config?.logSecrets;
      if (fields) declare(route.url, fields);
    },
    redact,
    redactText: (text) => (text.includes('/') ? text.replace(ADDRESS, (address) => redact(address)) : text),
  };
}

/**
 * The server's logger: credentials and secrets in headers and bodies removed, and every address in a
 * line (the request's URL, an error's message or stack, a message text) redacted by route.
 */
export function loggerOptions(
  config: Pick<Config, 'LOG_LEVEL'>,
  redactor: UrlRedactor,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'body.accessCode',
        'body.password',
        'body.token',
      ],
      remove: true,
    },
    serializers: {
      req: (req: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: req.method,
        url: redactor.redact(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    hooks: {
      // Every line as written: an address in an error's message or stack, or in a message text, too.
      streamWrite: (line) => redactor.redactText(line),
    },
  };
}
