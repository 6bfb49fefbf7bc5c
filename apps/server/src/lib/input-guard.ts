import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

export const nulMessage = 'De invoer bevat een ongeldig teken (NUL). Verwijder het en probeer het opnieuw.';

/** The path of the first string (or key) holding a NUL character, or null. */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = findNul(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Guards for every route. PostgreSQL text cannot hold NUL (U+0000): a string with one would fail in the database as a 500.
 * Every parsed body, query string and path parameter is refused with 400 before validation instead,
 * for every route at once. Multipart fields are checked where they are read (lib/media/upload.ts).
 */
export function registerInputGuards(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const field = findNul(req.params) ?? findNul(req.query) ?? findNul(req.body);
    if (field) throw badRequest(nulMessage, { [field]: 'Bevat een ongeldig teken (NUL)' });
  });
  // An answer given before the body was read (401 before an upload, 413 on its declared length) closes
  // the connection: keeping it alive would mean reading, and throwing away, the rest of the body first.
  app.addHook('onSend', async (req, reply) => {
    if (!req.raw.complete) reply.header('connection', 'close');
  });
}
