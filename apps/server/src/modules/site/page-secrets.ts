import { routes } from '@aandenken/contract';
import type { SecretFields } from '../../lib/log-redaction.ts';

/**
 * The pages whose address holds a secret or an e-mail address, masked in the log (lib/log-redaction.ts):
 * they are answered by the not-found handler or served as files, not by a route that could declare it.
 * The API's routes declare theirs in their `config.logSecrets`.
 */
export const pageSecrets: readonly (readonly [string, SecretFields])[] = [
  // The guestbook's short link, an invitation and a company's handover: the code is the key.
  [routes.guestbook(':token'), { params: ['token'] }],
  [routes.invite(':code'), { params: ['code'] }],
  [routes.handover(':code'), { params: ['code'] }],
  // The links in mail about one page: confirming a sign-up, switching a kind of mail off.
  [routes.mailConfirm, { query: ['t'] }],
  [routes.mailUnsubscribe, { query: ['t'] }],
  // Back from the identity provider: the authorization code and the state.
  [routes.authCallback, { query: ['code', 'state', 'session_state', 'iss'] }],
  [routes.logoutCallback, { query: ['state'] }],
  ['/silent-callback.html', { query: ['code', 'state', 'session_state', 'iss'] }],
  // The partner portal's link in the approval mail carries the partner's e-mail address.
  [routes.partnerPortal, { query: ['login_hint'] }],
];
