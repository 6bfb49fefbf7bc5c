import type { onSendHookHandler } from 'fastify';

/** What an API answer says about caching when its route says nothing: kept by no browser or proxy. */
export const NO_STORE = 'private, no-store';

/**
 * The API's answers hold personal data (guestbook addresses, RSVPs, members' e-mail addresses, team data),
 * so none is kept anywhere unless its route sets a Cache-Control of its own: the response cache's
 * revalidated public reads (ETag, `no-cache`), public photos and logos, signed downloads.
 */
export const noStoreByDefault: onSendHookHandler = (_req, reply, payload, done) => {
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
  done(null, payload);
};
