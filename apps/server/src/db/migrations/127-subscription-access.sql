-- 'Blijf verbonden' sign-ups remember the access they were made with, so that each message or reminder is
-- sent only while that access lasts (shared/memorial-access.ts, subscriptionAccessSql):
--   'public'  someone without a role on a public page (lasts while the page is public);
--   'member'  a signed-in member (user_id; lasts while they are a member);
--   'code'    a guest token from the access code, 'link' one from a one-time link (guest_token_id and the
--             code's access_code_version; last while the code was not regenerated, the link not ended and
--             the page not invite-only).
-- A new sign-up for an address already signed up waits in pending_access until its confirmation link is
-- followed, as its kinds do: whoever types the address cannot change how an earlier sign-up reaches the page.
ALTER TABLE memorial_subscriptions
  ADD COLUMN access_via text,
  ADD COLUMN user_id text REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN guest_token_id uuid,
  ADD COLUMN access_code_version integer,
  ADD COLUMN pending_access jsonb;

-- Earlier sign-ups: an address of a current member is that member's; any other is judged by the page as it was
-- when the sign-up was made, read back from the audit log (the first change after the sign-up says what was
-- before it): made while the page was public, 'public'; while private, through the code of that moment.
UPDATE memorial_subscriptions s
   SET access_via = 'member', user_id = u.id
  FROM memorial_members mm
  JOIN users u ON u.id = mm.user_id AND u.deleted_at IS NULL
 WHERE mm.memorial_id = s.memorial_id AND lower(u.email) = lower(s.email);

UPDATE memorial_subscriptions s
   SET access_via = CASE WHEN x.visibility = 'public' THEN 'public' ELSE 'code' END,
       access_code_version = CASE WHEN x.visibility = 'public' THEN NULL ELSE x.version END
  FROM (SELECT s2.id,
               coalesce((SELECT a.details ->> 'from' FROM memorial_audit_log a
                          WHERE a.memorial_id = s2.memorial_id AND a.action = 'memorial.visibility_changed'
                            AND a.created_at > s2.created_at
                          ORDER BY a.seq LIMIT 1), m.visibility) AS visibility,
               coalesce((SELECT (a.details ->> 'version')::int - 1 FROM memorial_audit_log a
                          WHERE a.memorial_id = s2.memorial_id AND a.action = 'memorial.access_code_regenerated'
                            AND a.created_at > s2.created_at
                          ORDER BY a.seq LIMIT 1), m.access_code_version) AS version
          FROM memorial_subscriptions s2 JOIN memorials m ON m.id = s2.memorial_id) x
 WHERE x.id = s.id AND s.access_via IS NULL;

ALTER TABLE memorial_subscriptions ALTER COLUMN access_via SET NOT NULL;
ALTER TABLE memorial_subscriptions
  ADD CONSTRAINT memorial_subscriptions_access_via_check CHECK (access_via IN ('public', 'member', 'code', 'link')),
  ADD CONSTRAINT memorial_subscriptions_guest_version_check
    CHECK (access_via NOT IN ('code', 'link') OR access_code_version IS NOT NULL);

-- How many sign-ups a sent message left out because their access to the page had ended.
ALTER TABLE future_messages ADD COLUMN skipped_count integer;
