-- Issue 14: the partner portal's profile (place, logo, prices, work area) and the public company pages.

ALTER TABLE companies
  ADD COLUMN city text,
  -- The logo: files in media storage under '<logo_id>/<variant>' (WebP, made on upload); a new upload gets a
  -- new id, so its URLs can be cached long. Public while the company is active.
  ADD COLUMN logo_id uuid,
  ADD COLUMN logo_variants jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- The packages: [{ name, amountCents, description }], checked by the API (contract: companyPriceSchema).
  ADD COLUMN prices jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- The work area: municipality names from the list the product ships (packages/contract/src/municipalities.ts)
  -- and four-digit postcode ranges [{ from, to }].
  ADD COLUMN work_municipalities text[] NOT NULL DEFAULT '{}',
  ADD COLUMN work_postcode_ranges jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD CONSTRAINT companies_logo_key UNIQUE (logo_id),
  ADD CONSTRAINT companies_prices_array CHECK (jsonb_typeof(prices) = 'array'),
  ADD CONSTRAINT companies_postcode_ranges_array CHECK (jsonb_typeof(work_postcode_ranges) = 'array');

-- The directory looks companies up by municipality.
CREATE INDEX companies_work_municipalities_idx ON companies USING gin (work_municipalities);

-- The public company pages and the directory are kept in the response cache (lib/response-cache.ts) under
-- the one key 'companies': every committed change to a company drops them all (companies change rarely).
CREATE FUNCTION notify_companies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('memorial_changed', 'companies');
  RETURN NULL;
END;
$$;
CREATE TRIGGER companies_notify_changed AFTER INSERT OR UPDATE OR DELETE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION notify_companies_changed();
