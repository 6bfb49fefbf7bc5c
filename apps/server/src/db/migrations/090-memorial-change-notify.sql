-- Every committed change to what a memorial shows (its details, members, memories, loves, media and
-- their variants, candles, an author's name) sends NOTIFY memorial_changed with the memorial's id.
-- The response cache (src/lib/response-cache.ts) of every app process listens and drops what it kept
-- for that memorial. A rolled-back transaction sends nothing; repeats within one transaction arrive once.

CREATE FUNCTION notify_memorial_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  memorial uuid;
BEGIN
  -- OLD for a delete, NEW otherwise; an update that moves a row to another memorial notifies both.
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'memorials' THEN
    memorial := r.id;
  ELSIF TG_TABLE_NAME = 'memory_loves' THEN
    SELECT mo.memorial_id INTO memorial FROM memories mo WHERE mo.id = r.memory_id;
  ELSIF TG_TABLE_NAME = 'media_variants' THEN
    SELECT me.memorial_id INTO memorial FROM media me WHERE me.id = r.media_id;
  ELSE
    memorial := r.memorial_id;
    IF TG_OP = 'UPDATE' THEN
      IF OLD.memorial_id IS DISTINCT FROM NEW.memorial_id THEN
        PERFORM pg_notify('memorial_changed', OLD.memorial_id::text);
      END IF;
    END IF;
  END IF;
  -- A cascade may already have removed the parent row; its own delete has notified then.
  IF memorial IS NOT NULL THEN
    PERFORM pg_notify('memorial_changed', memorial::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER memorials_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memorials
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER memorial_members_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memorial_members
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER memories_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memories
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER memory_loves_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memory_loves
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER media_notify_changed AFTER INSERT OR UPDATE OR DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER media_variants_notify_changed AFTER INSERT OR UPDATE OR DELETE ON media_variants
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER candles_notify_changed AFTER INSERT OR UPDATE OR DELETE ON candles
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();

-- A user's name is shown with their memories on every memorial they wrote on.
CREATE FUNCTION notify_author_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memorial uuid;
BEGIN
  FOR memorial IN SELECT DISTINCT mo.memorial_id FROM memories mo WHERE mo.author_user_id = NEW.id LOOP
    PERFORM pg_notify('memorial_changed', memorial::text);
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE TRIGGER users_notify_renamed AFTER UPDATE OF name ON users
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION notify_author_renamed();
