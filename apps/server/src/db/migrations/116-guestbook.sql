-- Issue 16, item 3 (docs/funeral-day.md, "Het condoleanceregister"): the digital guestbook of the funeral or
-- memorial service. One per memorial; visitors sign it through an unguessable short link (/g/{token}) without
-- an account or the page's access code, while the family has it open.

CREATE TABLE memorial_guestbooks (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  -- The short link's token: 16 random bytes, base64url (22 characters).
  token text NOT NULL UNIQUE,
  open boolean NOT NULL DEFAULT true,
  opened_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE guestbook_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorial_guestbooks (memorial_id) ON DELETE CASCADE,
  name text NOT NULL,
  -- For a thank-you card; optional.
  address text,
  message text,
  -- Hidden by the family: kept, but out of the list's default view and out of the exports.
  hidden boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX guestbook_entries_memorial_idx ON guestbook_entries (memorial_id, created_at);

-- The family's screen shows entries as they come: every new or changed entry sends NOTIFY guestbook_entry
-- with '{memorial id} {entry id}', which the live stream of every app process listens to. Committed changes
-- only; a rolled-back signature sends nothing.
CREATE FUNCTION notify_guestbook_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('guestbook_entry', NEW.memorial_id::text || ' ' || NEW.id::text);
  RETURN NULL;
END;
$$;
CREATE TRIGGER guestbook_entries_notify AFTER INSERT OR UPDATE ON guestbook_entries
  FOR EACH ROW EXECUTE FUNCTION notify_guestbook_entry();
