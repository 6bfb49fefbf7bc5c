-- Candles and flowers lit on a memorial by anyone who may see it.
CREATE TABLE candles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  kind text NOT NULL DEFAULT 'candle',
  name text NOT NULL,
  message text,
  lit_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  lit_by_guest_token_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT candles_kind_check CHECK (kind IN ('candle', 'flower')),
  CONSTRAINT candles_name_length CHECK (length(btrim(name)) BETWEEN 1 AND 80),
  CONSTRAINT candles_message_length CHECK (message IS NULL OR length(message) <= 280)
);
CREATE INDEX candles_memorial_created_idx ON candles (memorial_id, created_at DESC, id DESC);
CREATE INDEX candles_memorial_kind_idx ON candles (memorial_id, kind);

-- The counters on a memorial (021 left zeros until these tables existed). Same columns.
CREATE OR REPLACE VIEW memorial_counts AS
  SELECT m.id AS memorial_id,
         (SELECT count(*)::int FROM memories x WHERE x.memorial_id = m.id AND x.status = 'published') AS memory_count,
         (SELECT count(*)::int FROM media x WHERE x.memorial_id = m.id AND x.memory_id IS NULL) AS media_count,
         (SELECT count(*)::int FROM candles x WHERE x.memorial_id = m.id) AS candle_count
    FROM memorials m;
