-- Issue 14: the public company page lists the pages the company cared for whose families agreed to be shown
-- (companies/repository.ts listCaredPagesShown). The response cache keeps company pages under the key
-- 'companies' (migration 105): a family's choice, and a change to such a page's names, dates, visibility or
-- status, drop them as a change to the company does.
CREATE TRIGGER memorial_care_notify_companies AFTER INSERT OR UPDATE OR DELETE ON memorial_care
  FOR EACH STATEMENT EXECUTE FUNCTION notify_companies_changed();

CREATE FUNCTION notify_cared_page_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM memorial_care WHERE memorial_id = NEW.id AND shown_publicly) THEN
    PERFORM pg_notify('memorial_changed', 'companies');
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER memorials_notify_cared_page AFTER UPDATE ON memorials
  FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.birth_date IS DISTINCT FROM NEW.birth_date OR OLD.death_date IS DISTINCT FROM NEW.death_date
        OR OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION notify_cared_page_changed();
