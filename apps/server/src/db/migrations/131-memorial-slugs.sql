-- A readable address per memorial (/gedenkpagina/johanna-de-vries-1948-2024) and the family's choice to be
-- found by search engines (docs/decisions/020-search-engines.md).
--
-- The slug is made by the database, for every way a memorial is written (a family's concept, a company's
-- page for a family, the examples): from the names and the years, unique with -2, -3 … on a collision. When
-- the names or years change, the page gets a new slug and the old one is kept in memorial_old_slugs, so an
-- address that was shared keeps working (the site answers it with a redirect). An old slug stays with its
-- page: a new page never takes it.

ALTER TABLE memorials ADD COLUMN slug text;
ALTER TABLE memorials ADD COLUMN search_engines boolean NOT NULL DEFAULT false;

CREATE TABLE memorial_old_slugs (
  slug text PRIMARY KEY,
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memorial_old_slugs_memorial_idx ON memorial_old_slugs (memorial_id);

-- 'Johanna de Vries', 1948-03-02, 2024-01-09 → 'johanna-de-vries-1948-2024'. Letters with accents lose them;
-- anything else becomes a hyphen. The name part is at most 60 characters.
CREATE FUNCTION memorial_slug_base(first_name text, last_name text, birth date, death date)
RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  name text;
BEGIN
  name := lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''));
  name := replace(replace(replace(replace(replace(name, 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ĳ', 'ij'), '&', ' en ');
  name := translate(name,
    'àáâãäåāăąçćčďđèéêëēėęěìíîïīįıłñńňòóôõöøōőùúûüūůűųýÿźżžśşšřŕťţ',
    'aaaaaaaaacccddeeeeeeeeiiiiiiilnnnoooooooouuuuuuuuyyzzzsssrrtt');
  name := trim(both '-' from regexp_replace(name, '[^a-z0-9]+', '-', 'g'));
  name := trim(both '-' from left(name, 60));
  IF name = '' THEN
    name := 'gedenkpagina';
  END IF;
  RETURN name
    || coalesce('-' || extract(year FROM birth)::int::text, '')
    || coalesce('-' || extract(year FROM death)::int::text, '');
END;
$$;

CREATE FUNCTION memorials_assign_slug() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base text;
  candidate text;
  n int := 1;
BEGIN
  base := memorial_slug_base(NEW.first_name, NEW.last_name, NEW.birth_date, NEW.death_date);
  -- The same names and years: the page keeps its address (also its -2 when it had one).
  IF TG_OP = 'UPDATE' AND OLD.slug IS NOT NULL
     AND (OLD.slug = base OR OLD.slug ~ ('^' || base || '-[0-9]{1,3}$')) THEN
    NEW.slug := OLD.slug;
    RETURN NEW;
  END IF;
  -- Two pages with the same base, written at once, take turns: the second sees the first one's slug.
  PERFORM pg_advisory_xact_lock(hashtext('memorial-slug:' || base));
  candidate := base;
  LOOP
    EXIT WHEN NOT EXISTS (SELECT 1 FROM memorials WHERE slug = candidate AND id <> NEW.id)
          AND NOT EXISTS (SELECT 1 FROM memorial_old_slugs WHERE slug = candidate AND memorial_id <> NEW.id);
    n := n + 1;
    candidate := base || '-' || n;
  END LOOP;
  IF TG_OP = 'UPDATE' AND OLD.slug IS NOT NULL AND OLD.slug <> candidate THEN
    INSERT INTO memorial_old_slugs (slug, memorial_id) VALUES (OLD.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
  END IF;
  -- A page that gets an earlier address back: it is its current one again, not an old one.
  DELETE FROM memorial_old_slugs WHERE slug = candidate;
  NEW.slug := candidate;
  RETURN NEW;
END;
$$;

CREATE TRIGGER memorials_assign_slug BEFORE INSERT OR UPDATE OF first_name, last_name, birth_date, death_date
  ON memorials FOR EACH ROW EXECUTE FUNCTION memorials_assign_slug();

-- The pages there are now, oldest first (the oldest keeps the address without a number).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT id FROM memorials ORDER BY created_at, id LOOP
    UPDATE memorials SET first_name = first_name WHERE id = r.id;
  END LOOP;
END;
$$;

ALTER TABLE memorials ALTER COLUMN slug SET NOT NULL;
ALTER TABLE memorials ADD CONSTRAINT memorials_slug_key UNIQUE (slug);
