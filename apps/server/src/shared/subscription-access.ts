import { partnerRoleSql } from './memorial-access.ts';

/**
 * Whether the sign-up `s` (a `memorial_subscriptions` row) may still receive mail from the page `m` (its
 * `memorials` row) now: the one rule every sender of the family's messages and of reminders embeds, judged at
 * the moment of sending, so mail follows the page's access as it is then, not as it was at sign-up.
 *
 * - a deleted page: nobody;
 * - the address or the account that signed up is a current member (or the page's partner editor): yes;
 * - otherwise only an active page: a public one, anyone signed up; a private one, a sign-up made with a guest
 *   token while the access code's version is still the one it was made under (not regenerated since), the
 *   one-time link its token came from not ended, and the page not invite-only (there only members).
 */
export const subscriptionAccessSql = (s: string, m: string) =>
  `(${m}.deleted_at IS NULL AND (
      EXISTS (SELECT 1 FROM memorial_members amm JOIN users au ON au.id = amm.user_id
               WHERE amm.memorial_id = ${m}.id AND au.deleted_at IS NULL
                 AND (amm.user_id = ${s}.user_id OR lower(au.email) = lower(${s}.email)))
      OR (${s}.user_id IS NOT NULL AND EXISTS (${partnerRoleSql(`${m}.id`, `${s}.user_id`)}))
      OR (${m}.status = 'active' AND (
            ${m}.visibility = 'public'
            OR (${s}.access_via IN ('code', 'link') AND NOT ${m}.invite_only
                AND ${s}.access_code_version = ${m}.access_code_version
                AND NOT EXISTS (SELECT 1 FROM guest_link_tokens al
                                 WHERE al.guest_token_id = ${s}.guest_token_id
                                   AND al.guest_token_ended_at IS NOT NULL))))))`;
