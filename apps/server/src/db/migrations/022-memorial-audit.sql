-- Who changed what on a memorial, and when. Written in the same transaction as the change.
CREATE TABLE memorial_audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Insert order: pages newest first without ties, also within one transaction.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  actor_kind text NOT NULL,
  actor_user_id text REFERENCES users (id) ON DELETE SET NULL,
  -- The actor's name at the time (a user's name, or the name a guest gave).
  actor_name text,
  action text NOT NULL,
  target_type text,
  target_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_audit_log_actor_kind_check CHECK (actor_kind IN ('user', 'guest', 'anonymous', 'system')),
  CONSTRAINT memorial_audit_log_action_format CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  CONSTRAINT memorial_audit_log_seq_key UNIQUE (seq)
);
CREATE INDEX memorial_audit_log_memorial_seq_idx ON memorial_audit_log (memorial_id, seq DESC);
