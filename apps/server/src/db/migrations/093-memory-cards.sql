-- The wall's read model: each memory keeps its card, the memory as the API shows it to someone with no
-- stake in it (not its author, no editor, has not loved it, no own photos in it) on an open page, as
-- ready-made JSON text. The application writes a card when it has built one (`card_key` names the card
-- format and the API address its photo links use); these triggers drop it whenever anything it was built
-- from changes, and `card_version` counts those changes, so a card built from older data is never stored.
--
-- Any update of a memory that does not write its card drops the card: text, privacy, status, counts (a
-- love or a photo added or removed), the author's account. Writing a card changes `card` or `card_key`.

ALTER TABLE memories
  ADD COLUMN card text,
  ADD COLUMN card_key text,
  ADD COLUMN card_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION memory_card_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.card IS NOT DISTINCT FROM OLD.card AND NEW.card_key IS NOT DISTINCT FROM OLD.card_key THEN
    NEW.card := NULL;
    NEW.card_key := NULL;
    NEW.card_version := OLD.card_version + 1;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER memory_card_drop BEFORE UPDATE ON memories
  FOR EACH ROW EXECUTE FUNCTION memory_card_drop();

-- What a card shows from other tables: its photos (caption, order, status, variants), the names of those
-- who loved it (adding or removing a love changes `love_count`, so only a renamed love needs this), and
-- the author's name. Touching the memory is enough: the trigger above does the rest.
CREATE FUNCTION memory_card_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    UPDATE memories SET card_version = card_version WHERE author_user_id = NEW.id;
  ELSIF NEW.memory_id IS NOT NULL THEN
    UPDATE memories SET card_version = card_version WHERE id = NEW.memory_id;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER media_memory_card AFTER UPDATE ON media
  FOR EACH ROW WHEN (NEW.memory_id IS NOT NULL AND OLD.memory_id IS NOT DISTINCT FROM NEW.memory_id)
  EXECUTE FUNCTION memory_card_touch();
CREATE TRIGGER memory_loves_card AFTER UPDATE OF name ON memory_loves
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION memory_card_touch();
CREATE TRIGGER users_memory_card AFTER UPDATE OF name ON users
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION memory_card_touch();

-- Keeping a card changes nothing anyone sees: it must not empty the response cache (migration 090). Every
-- other update of a memory moves its card version on.
DROP TRIGGER memories_notify_changed ON memories;
CREATE TRIGGER memories_notify_changed AFTER INSERT OR DELETE ON memories
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();
CREATE TRIGGER memories_notify_changed_update AFTER UPDATE ON memories
  FOR EACH ROW WHEN (OLD.card_version IS DISTINCT FROM NEW.card_version) EXECUTE FUNCTION notify_memorial_changed();
