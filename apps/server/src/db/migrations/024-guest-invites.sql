-- Invitations by e-mail. The code in the link has 192 bits of randomness and is stored only as a
-- SHA-256 hash; resending makes a new code (the old link stops working).
CREATE TABLE guest_invites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  email text NOT NULL,
  name text,
  role text NOT NULL,
  code_hash text NOT NULL,
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_sent_at timestamptz,
  send_count integer NOT NULL DEFAULT 0,
  revoked_at timestamptz,
  revoked_by text REFERENCES users (id) ON DELETE SET NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT guest_invites_role_check CHECK (role IN ('editor', 'contributor', 'guest')),
  CONSTRAINT guest_invites_code_hash_key UNIQUE (code_hash),
  CONSTRAINT guest_invites_email_not_blank CHECK (length(btrim(email)) > 0),
  CONSTRAINT guest_invites_name_length CHECK (name IS NULL OR length(name) <= 100),
  CONSTRAINT guest_invites_not_both_ended CHECK (revoked_at IS NULL OR accepted_at IS NULL),
  CONSTRAINT guest_invites_send_count_check CHECK (send_count >= 0)
);
-- One open invite per address per memorial.
CREATE UNIQUE INDEX guest_invites_open_email_key ON guest_invites (memorial_id, lower(email))
  WHERE revoked_at IS NULL AND accepted_at IS NULL;
CREATE INDEX guest_invites_memorial_created_idx ON guest_invites (memorial_id, created_at DESC, id DESC);

ALTER TABLE guest_link_tokens
  ADD CONSTRAINT guest_link_tokens_invite_fkey FOREIGN KEY (invite_id) REFERENCES guest_invites (id) ON DELETE CASCADE;
