-- Each memory keeps how many loves and how many photos or videos it has, kept in step by triggers (an
-- increment under the memory's row lock, so concurrent loves never lose a count). The wall reads them to
-- skip the lookups a memory without loves or media does not need: most memories have neither.

ALTER TABLE memories
  ADD COLUMN love_count integer NOT NULL DEFAULT 0,
  ADD COLUMN media_count integer NOT NULL DEFAULT 0;

CREATE FUNCTION memory_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'memory_loves' THEN
    IF TG_OP <> 'DELETE' THEN
      UPDATE memories SET love_count = love_count + 1 WHERE id = NEW.memory_id;
    END IF;
    IF TG_OP <> 'INSERT' THEN
      UPDATE memories SET love_count = love_count - 1 WHERE id = OLD.memory_id;
    END IF;
  ELSE
    IF TG_OP <> 'DELETE' AND NEW.memory_id IS NOT NULL THEN
      UPDATE memories SET media_count = media_count + 1 WHERE id = NEW.memory_id;
    END IF;
    IF TG_OP <> 'INSERT' AND OLD.memory_id IS NOT NULL THEN
      UPDATE memories SET media_count = media_count - 1 WHERE id = OLD.memory_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER memory_loves_count AFTER INSERT OR DELETE ON memory_loves
  FOR EACH ROW EXECUTE FUNCTION memory_counts_sync();
CREATE TRIGGER memory_loves_count_moved AFTER UPDATE OF memory_id ON memory_loves
  FOR EACH ROW WHEN (OLD.memory_id IS DISTINCT FROM NEW.memory_id) EXECUTE FUNCTION memory_counts_sync();
CREATE TRIGGER media_memory_count AFTER INSERT OR DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION memory_counts_sync();
CREATE TRIGGER media_memory_count_moved AFTER UPDATE OF memory_id ON media
  FOR EACH ROW WHEN (OLD.memory_id IS DISTINCT FROM NEW.memory_id) EXECUTE FUNCTION memory_counts_sync();

UPDATE memories mo
   SET love_count = (SELECT count(*) FROM memory_loves l WHERE l.memory_id = mo.id),
       media_count = (SELECT count(*) FROM media m WHERE m.memory_id = mo.id);
