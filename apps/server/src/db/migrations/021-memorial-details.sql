-- Memorial details beyond 020: cover image (domain media adds the FK), publication time, biography.
ALTER TABLE memorials
  ADD COLUMN cover_media_id uuid,
  ADD COLUMN published_at timestamptz,
  ADD COLUMN biography_html text NOT NULL DEFAULT '',
  ADD COLUMN biography_updated_at timestamptz,
  ADD COLUMN biography_updated_by text REFERENCES users (id) ON DELETE SET NULL,
  ADD CONSTRAINT memorials_quote_length CHECK (quote IS NULL OR length(quote) <= 280),
  ADD CONSTRAINT memorials_biography_length CHECK (length(biography_html) <= 50000);

-- Public, published memorials: newest first, for POST /memorial/query.
CREATE INDEX memorials_public_published_idx ON memorials (published_at DESC, id DESC)
  WHERE visibility = 'public' AND status = 'active';
CREATE INDEX memorials_created_by_idx ON memorials (created_by);
CREATE INDEX memorial_members_memorial_idx ON memorial_members (memorial_id, created_at, id);

-- Counters shown on a memorial. Memories, media and candles belong to another module, which replaces
-- this view (CREATE OR REPLACE VIEW, same columns) once its tables exist; keep one correlated
-- subquery per column so a lookup for a few memorials stays an index lookup.
CREATE VIEW memorial_counts AS
  SELECT m.id AS memorial_id,
         0::int AS memory_count,
         0::int AS media_count,
         0::int AS candle_count
    FROM memorials m;

-- POST /memorial/concept with an Idempotency-Key: the same user and key within 24 hours return the
-- memorial created the first time instead of a second one.
CREATE TABLE memorial_idempotency_keys (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_idempotency_keys_pkey PRIMARY KEY (user_id, idempotency_key),
  CONSTRAINT memorial_idempotency_keys_key_length CHECK (length(idempotency_key) BETWEEN 1 AND 200)
);
CREATE INDEX memorial_idempotency_keys_created_idx ON memorial_idempotency_keys (created_at);
