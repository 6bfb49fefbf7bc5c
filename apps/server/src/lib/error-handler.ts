import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorCodes } from '@aandenken/contract';
import { AppError } from './errors.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseUnavailableMessage,
  isDatabaseUnavailable,
  isStorageFull,
  STORAGE_RETRY_AFTER_SECONDS,
  storageFullMessage,
  StorageUnavailableError,
  storageUnavailableMessage,
} from './unavailable.ts';

/** Dutch names of request fields, for the message that says which one to correct. */
const fieldLabels: Record<string, string> = {
  accessCode: 'toegangscode',
  firstName: 'voornaam',
  lastName: 'achternaam',
  birthDate: 'geboortedatum',
  birthPlace: 'geboorteplaats',
  deathDate: 'overlijdensdatum',
  deathPlace: 'plaats van overlijden',
  quote: 'citaat',
  email: 'e-mailadres',
  name: 'naam',
  guestName: 'naam',
  inviteeName: 'naam',
  message: 'bericht',
  text: 'tekst',
  yearLabel: 'jaartal',
  caption: 'onderschrift',
  role: 'rol',
  visibility: 'zichtbaarheid',
  status: 'status',
  html: 'levensverhaal',
  token: 'token',
  code: 'code',
  limit: 'aantal',
  memorialId: 'pagina',
  memoryId: 'herinnering',
  mediaId: 'bestand',
  id: 'id',
  kind: 'soort',
  membersOnly: 'alleen voor leden',
  companyName: 'bedrijfsnaam',
  companyType: 'soort bedrijf',
  postalCode: 'postcode',
  houseNumber: 'huisnummer',
  streetName: 'straat',
  phoneNumber: 'telefoonnummer',
  subject: 'onderwerp',
};

const sources: Record<string, string> = {
  body: 'de inhoud',
  querystring: 'de zoekparameters',
  params: 'het adres',
  headers: 'de headers',
};

/** Dutch answers to the framework's own 4xx errors, by Fastify error code. */
const frameworkErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'De inhoud is geen geldige JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'De inhoud ontbreekt; stuur een JSON-object.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'De opgegeven lengte klopt niet met de inhoud.',
  FST_ERR_BAD_URL: 'Dit adres is ongeldig.',
  FST_ERR_MAX_PARAM_LENGTH: 'Dit adres is te lang.',
};

/**
 * The multipart parser's (busboy's) own errors carry no status: a body without a boundary, or one that
 * ends before its last part does. They are the client's fault, not ours.
 */
const multipartParseErrors = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^Unexpected end of multipart data$/,
  /terminated early due to unexpected end of multipart data$/,
];
export const isMultipartParseError = (err: { statusCode?: number; message?: string }) =>
  err.statusCode === undefined && multipartParseErrors.some((re) => re.test(err.message ?? ''));
export const multipartParseMessage =
  'De upload is onvolledig of onleesbaar (geen geldig multipart-formulier). Probeer het opnieuw.';

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or error handler runs
 * (an address that cannot be decoded, a path segment over the length limit).
 */
export function frameworkErrorAnswer(err: FastifyError, _req: unknown, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 400;
  return reply.status(status).send({
    code: errorCodes.validation,
    message: frameworkErrors[err.code] ?? 'Dit adres is ongeldig.',
  });
}

/**
 * Fastify's `clientErrorHandler`: what Node refuses before a request reaches the framework (headers or a
 * body that did not arrive in time, headers too large, a request that cannot be parsed). The connection
 * is closed after the answer.
 */
export function clientErrorAnswer(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'Het verzoek kwam te langzaam binnen en is afgebroken.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            errorCodes.validation,
            'De headers van het verzoek zijn te groot.',
          ]
        : [400, 'Bad Request', errorCodes.validation, 'Het verzoek kon niet worden gelezen.'];
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * One error handler (house style): every failure becomes `{ code, message }` with the right status,
 * Dutch messages, and never a stack trace. Validation errors name their fields.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.statusCode).send({
        ...err.extra,
        code: err.code,
        message: err.message,
        ...(err.fields ? { fields: err.fields } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        fields[key] ??= issue.message ?? 'Ongeldige waarde.';
      }
      const first = Object.entries(fields)[0];
      const source = sources[err.validationContext ?? 'body'] ?? 'de invoer';
      let message = 'Controleer je invoer.';
      if (first?.[0] === '_')
        message =
          err.validationContext === 'body' && err.validation[0]?.keyword === 'invalid_type'
            ? 'De inhoud ontbreekt of is geen JSON-object.'
            : `Controleer ${source}: ${first[1]}`;
      else if (first) {
        const top = first[0].split('.')[0]!;
        message = `Controleer het veld ${fieldLabels[top] ?? top}: ${first[1]}`;
      }
      return reply.status(400).send({ code: errorCodes.validation, message, fields });
    }
    if (isMultipartParseError(err)) {
      return reply.status(400).send({ code: errorCodes.validation, message: multipartParseMessage });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ code: errorCodes.internal, message: 'Er ging iets mis. Probeer het later opnieuw.' });
    }
    if (err.code === 'ECONNRESET' && err.message === 'aborted' && req.raw.socket?.destroyed !== false) {
      // The request's own body broke off: the client left, or was cut off as too slow (body-deadline.ts).
      // Nobody hears the answer and nothing of ours failed, so nothing is logged.
      return reply.status(400).send({ code: errorCodes.validation, message: 'Het verzoek is afgebroken.' });
    }
    if (err instanceof StorageUnavailableError) {
      // Checked before the database: the store's cause may be a refused socket too.
      const cause = err.cause as { name?: unknown; message?: unknown; code?: unknown } | undefined;
      req.log.warn(
        { err: { name: cause?.name, message: cause?.message, code: cause?.code } },
        'storage unavailable',
      );
      return reply
        .status(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ code: errorCodes.storageUnavailable, message: storageUnavailableMessage });
    }
    if (isDatabaseUnavailable(err)) {
      // Not a bug of ours: the database is down or restarting. The client may try again (with the same
      // Idempotency-Key for a write, so a change that did commit is not made twice).
      req.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ code: errorCodes.databaseUnavailable, message: databaseUnavailableMessage });
    }
    if (isStorageFull(err)) {
      req.log.error({ err: { message: err.message, code: err.code } }, 'storage full');
      return reply.status(507).send({ code: errorCodes.storageFull, message: storageFullMessage });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(413)
        .send({ code: errorCodes.payloadTooLarge, message: 'Het verzoek is te groot.' });
    }
    if (status === 415 || err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .status(415)
        .send({ code: errorCodes.unsupportedMediaType, message: 'Dit type inhoud wordt niet ondersteund.' });
    }
    if (status === 429) {
      return reply.status(429).send({ code: errorCodes.rateLimited, message: err.message });
    }
    if (status === 404) {
      return reply.status(404).send({ code: errorCodes.notFound, message: 'Niet gevonden.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({
        code: errorCodes.validation,
        message:
          (err.code && frameworkErrors[err.code]) ??
          'Het verzoek kon niet worden verwerkt. Controleer je invoer.',
      });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: errorCodes.internal, message: 'Er ging iets mis. Probeer het later opnieuw.' });
  });
}

/**
 * Answers for /core addresses no route matches: 405 with `Allow` when the path exists for other
 * methods, else 404; both as `{ code, message }` in Dutch. Routes are collected with `onRoute`.
 */
export function registerApiNotFound(core: FastifyInstance) {
  const routes: { method: string; pattern: RegExp }[] = [];
  core.addHook('onRoute', (route: RouteOptions) => {
    const pattern = new RegExp(
      `^${route.url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
        .replace(/\*/g, '.*')}/?$`,
    );
    for (const method of [route.method].flat()) routes.push({ method, pattern });
  });
  core.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(pathname)).map((r) => r.method))];
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({ code: errorCodes.methodNotAllowed, message: `Deze API-route werkt niet met ${req.method}.` });
    }
    return reply.status(404).send({ code: errorCodes.notFound, message: 'Deze API-route bestaat niet.' });
  });
}
