-- Issue 16, item 6 (docs/funeral-day.md, 'Samen herdenken'): the kaarsjesmoment, an hour the family chooses
-- in which everyone on the page sees the candles lit appear live, with how many are there together.

-- A moment on a memorial. Date and start are wall-clock time in Europe/Amsterdam; the instants are kept
-- beside them (computed by the server) so that "is one on now" is one indexed comparison.
CREATE TABLE candle_moments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  moment_date date NOT NULL,
  starts_at time NOT NULL,
  duration_minutes int NOT NULL DEFAULT 60,
  title text,
  starts_at_instant timestamptz NOT NULL,
  ends_at_instant timestamptz NOT NULL,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT candle_moments_duration CHECK (duration_minutes BETWEEN 15 AND 240),
  CONSTRAINT candle_moments_title_length CHECK (title IS NULL OR length(title) <= 120),
  CONSTRAINT candle_moments_order CHECK (ends_at_instant > starts_at_instant)
);
CREATE INDEX candle_moments_memorial_idx ON candle_moments (memorial_id, ends_at_instant);

-- The moments are part of what the memorial page reads: a change drops its cached reads (090).
CREATE TRIGGER candle_moments_notify_changed AFTER INSERT OR UPDATE OR DELETE ON candle_moments
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();

-- Who is there: one row per open live connection, whichever process holds it. The process refreshes
-- seen_at on a heartbeat and deletes the row when the connection ends; a row whose process died is no
-- longer counted once seen_at is old, and is deleted by the next heartbeat of any process.
CREATE TABLE candle_presence (
  id uuid PRIMARY KEY,
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  moment_id uuid NOT NULL REFERENCES candle_moments (id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL
);
CREATE INDEX candle_presence_memorial_idx ON candle_presence (memorial_id, seen_at);

-- Live news for every process: a candle lit ('c': its id) and a change of who is there ('p').
CREATE FUNCTION notify_candle_live() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'candles' THEN
    PERFORM pg_notify('candle_live', json_build_object('m', NEW.memorial_id, 'c', NEW.id)::text);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('candle_live', json_build_object('m', OLD.memorial_id, 'p', true)::text);
  ELSE
    PERFORM pg_notify('candle_live', json_build_object('m', NEW.memorial_id, 'p', true)::text);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER candles_notify_live AFTER INSERT ON candles
  FOR EACH ROW EXECUTE FUNCTION notify_candle_live();
CREATE TRIGGER candle_presence_notify_live AFTER INSERT OR DELETE ON candle_presence
  FOR EACH ROW EXECUTE FUNCTION notify_candle_live();
