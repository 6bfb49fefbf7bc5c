-- Live streams (the guestbook's list, the kaarsjesmoment) end when the caller's access ends. Every change that
-- can end someone's access to a memorial notifies `live_access` with the memorial's id; each process checks
-- its open streams on that memorial again (lib/live-streams.ts). A rolled-back change sends nothing.

CREATE FUNCTION notify_live_access() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'memorials' THEN
    PERFORM pg_notify('live_access', r.id::text);
  ELSIF TG_TABLE_NAME = 'companies' THEN
    -- A suspended (or restored) company: the pages it cares for.
    PERFORM pg_notify('live_access', mc.memorial_id::text) FROM memorial_care mc WHERE mc.company_id = r.id;
  ELSIF TG_TABLE_NAME = 'company_users' THEN
    -- A colleague removed: the pages their company cares for.
    PERFORM pg_notify('live_access', mc.memorial_id::text) FROM memorial_care mc
      WHERE mc.company_id = r.company_id;
  ELSE
    PERFORM pg_notify('live_access', r.memorial_id::text);
  END IF;
  RETURN NULL;
END;
$$;

-- The page deleted (also the owner's soft delete), archived, made private or invite-only, or its code
-- regenerated (which ends the guests' tokens).
CREATE TRIGGER memorials_notify_live_access AFTER UPDATE ON memorials
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.visibility IS DISTINCT FROM NEW.visibility
        OR OLD.invite_only IS DISTINCT FROM NEW.invite_only
        OR OLD.access_code_version IS DISTINCT FROM NEW.access_code_version
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION notify_live_access();
CREATE TRIGGER memorials_delete_notify_live_access AFTER DELETE ON memorials
  FOR EACH ROW EXECUTE FUNCTION notify_live_access();
-- A member removed or given another role.
CREATE TRIGGER memorial_members_notify_live_access AFTER UPDATE OF role OR DELETE ON memorial_members
  FOR EACH ROW EXECUTE FUNCTION notify_live_access();
-- The family took the page over, withdrew the partner role, or the care ended.
CREATE TRIGGER memorial_care_notify_live_access AFTER UPDATE OR DELETE ON memorial_care
  FOR EACH ROW EXECUTE FUNCTION notify_live_access();
CREATE TRIGGER companies_notify_live_access AFTER UPDATE OF state ON companies
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION notify_live_access();
CREATE TRIGGER company_users_notify_live_access AFTER DELETE ON company_users
  FOR EACH ROW EXECUTE FUNCTION notify_live_access();
-- A one-time link's token ended (its invitation revoked, its member removed).
CREATE TRIGGER guest_link_tokens_notify_live_access AFTER UPDATE OF guest_token_ended_at ON guest_link_tokens
  FOR EACH ROW WHEN (OLD.guest_token_ended_at IS DISTINCT FROM NEW.guest_token_ended_at)
  EXECUTE FUNCTION notify_live_access();

-- "Samen" counts people, not connections: the presence rows of one person (a user, a guest token, or an
-- anonymous visitor's address and page view) count once. A hash, never the address itself.
ALTER TABLE candle_presence ADD COLUMN person text;

-- On an invite-only page a guest token counts only when a link gave it (modules/guests/tokens.ts): found by
-- the token's id on every request of such a guest.
CREATE INDEX guest_link_tokens_guest_token_idx ON guest_link_tokens (guest_token_id)
  WHERE guest_token_id IS NOT NULL;
