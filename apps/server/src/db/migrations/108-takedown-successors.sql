-- Melden (issue 21, item 3; docs/privacy.md): anyone reports a memory or a photo with a reason; the page's
-- owners and the team are told; the team (or an owner) hides the item. A hidden item is left out of every
-- read but the owners' own list of hidden items; its row and files stay until someone deletes them.
ALTER TABLE memories
  ADD COLUMN hidden_at timestamptz,
  ADD COLUMN hidden_by text,
  ADD COLUMN hidden_reason text,
  ADD CONSTRAINT memories_hidden_by_check CHECK (hidden_by IS NULL OR hidden_by IN ('team', 'owner')),
  ADD CONSTRAINT memories_hidden_complete CHECK ((hidden_at IS NULL) = (hidden_by IS NULL)),
  ADD CONSTRAINT memories_hidden_reason_length CHECK (hidden_reason IS NULL OR length(hidden_reason) <= 1000);
ALTER TABLE media
  ADD COLUMN hidden_at timestamptz,
  ADD COLUMN hidden_by text,
  ADD COLUMN hidden_reason text,
  ADD CONSTRAINT media_hidden_by_check CHECK (hidden_by IS NULL OR hidden_by IN ('team', 'owner')),
  ADD CONSTRAINT media_hidden_complete CHECK ((hidden_at IS NULL) = (hidden_by IS NULL)),
  ADD CONSTRAINT media_hidden_reason_length CHECK (hidden_reason IS NULL OR length(hidden_reason) <= 1000);

CREATE TABLE takedown_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  memory_id uuid REFERENCES memories (id) ON DELETE CASCADE,
  media_id uuid REFERENCES media (id) ON DELETE CASCADE,
  reason text NOT NULL,
  details text,
  reporter_user_id text REFERENCES users (id) ON DELETE SET NULL,
  -- A keyed hash of the reporter's address (never the address itself): the rate limit counts it.
  reporter_key text NOT NULL,
  status text NOT NULL DEFAULT 'open',
  handled_at timestamptz,
  handled_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT takedown_reports_one_item CHECK ((memory_id IS NULL) <> (media_id IS NULL)),
  CONSTRAINT takedown_reports_reason_check CHECK (
    reason IN ('privacy', 'offensive', 'incorrect', 'copyright', 'other')),
  CONSTRAINT takedown_reports_details_length CHECK (details IS NULL OR length(details) <= 2000),
  CONSTRAINT takedown_reports_status_check CHECK (status IN ('open', 'handled'))
);
CREATE INDEX takedown_reports_status_idx ON takedown_reports (status, created_at DESC, id DESC);
CREATE INDEX takedown_reports_reporter_idx ON takedown_reports (reporter_key, created_at);
CREATE INDEX takedown_reports_memory_idx ON takedown_reports (memory_id) WHERE memory_id IS NOT NULL;
CREATE INDEX takedown_reports_media_idx ON takedown_reports (media_id) WHERE media_id IS NOT NULL;
CREATE INDEX takedown_reports_memorial_idx ON takedown_reports (memorial_id, created_at DESC);

-- Successors (issue 21, item 4; docs/roles.md): the one person an owner names to take the page over when
-- the last owner is gone (account deleted) or silent (a year without signing in, two reminders unanswered).
-- A member of the page, or an address that gets an ownership invitation at the hand-over.
CREATE TABLE memorial_successors (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  email text,
  named_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_successors_one CHECK ((user_id IS NULL) <> (email IS NULL)),
  CONSTRAINT memorial_successors_email_length CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254)
);
CREATE INDEX memorial_successors_user_idx ON memorial_successors (user_id) WHERE user_id IS NOT NULL;

-- When the person last used the service (written at most once an hour per process, lib/auth.ts), and the
-- inactivity reminders sent since (0, 1, 2; reset when they come back).
ALTER TABLE users
  ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN inactivity_reminders integer NOT NULL DEFAULT 0,
  ADD COLUMN inactivity_reminded_at timestamptz,
  ADD CONSTRAINT users_inactivity_reminders_check CHECK (inactivity_reminders BETWEEN 0 AND 2);

-- An ownership invitation (a successor's address without an account, or the team's hand-over).
ALTER TABLE guest_invites DROP CONSTRAINT guest_invites_role_check;
ALTER TABLE guest_invites
  ADD CONSTRAINT guest_invites_role_check CHECK (role IN ('owner', 'editor', 'contributor', 'guest'));

-- The page's counters leave out what is hidden after a report, as every list does. Same columns.
CREATE OR REPLACE VIEW memorial_counts AS
  SELECT m.id AS memorial_id,
         (SELECT count(*)::int FROM memories x
           WHERE x.memorial_id = m.id AND x.status = 'published' AND x.hidden_at IS NULL) AS memory_count,
         (SELECT count(*)::int FROM media x
           WHERE x.memorial_id = m.id AND x.memory_id IS NULL AND x.hidden_at IS NULL) AS media_count,
         (SELECT count(*)::int FROM candles x WHERE x.memorial_id = m.id) AS candle_count
    FROM memorials m;
