-- Every use of an access code, to limit guessing per client address and across all addresses.
-- Shared by every process (never in process memory). The address is stored as a keyed hash; the
-- code itself is never stored. Rows older than a day are pruned.
CREATE TABLE access_code_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_hash text NOT NULL,
  outcome text NOT NULL,
  memorial_id uuid REFERENCES memorials (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT access_code_attempts_outcome_check CHECK (outcome IN ('pending', 'failed', 'succeeded', 'limited'))
);
CREATE INDEX access_code_attempts_client_idx ON access_code_attempts (client_hash, created_at);
CREATE INDEX access_code_attempts_failed_idx ON access_code_attempts (created_at) WHERE outcome IN ('failed', 'pending');

-- One-time links (in an invite or access mail) that exchange for a guest token. Only a hash of the
-- token is stored; a link works once, until it expires, and only while the access code version it
-- was made with is current.
CREATE TABLE guest_link_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  purpose text NOT NULL,
  invite_id uuid,
  guest_name text,
  access_code_version integer NOT NULL,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CONSTRAINT guest_link_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT guest_link_tokens_purpose_check CHECK (purpose IN ('invite', 'access')),
  CONSTRAINT guest_link_tokens_expiry_check CHECK (expires_at > created_at)
);
CREATE INDEX guest_link_tokens_memorial_idx ON guest_link_tokens (memorial_id);
